/**
 * The Cloud API simulator's page (/simulator/cloudapi, a tab beside the QR simulator): Meta's side of a number
 * (credentials, callback URL with its verification, templates and their approval) and the customers, who write in
 * every message type and read the business's messages. Plain HTML and script polling the simulator API; pt
 * (default), en and es, following the app's `language` choice like the QR simulator.
 */
export const CLOUD_API_SIMULATOR_PAGE = `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title data-i18n="title">Simulador da API oficial (Cloud API)</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; background: #f0f2f5; color: #111; }
  header { background: #0b5cad; color: #fff; padding: 10px 16px; font-size: 18px; display: flex; align-items: center; gap: 12px; }
  header span { flex: 1; }
  nav a { color: #fff; margin-right: 12px; }
  nav a.active { font-weight: 700; text-decoration: none; }
  main { display: grid; grid-template-columns: 380px 1fr; gap: 12px; padding: 12px; }
  section { background: #fff; border-radius: 8px; padding: 12px; margin-bottom: 12px; }
  h2 { font-size: 15px; margin: 0 0 8px; }
  .num, .tpl, .cust { border: 1px solid #ddd; border-radius: 6px; padding: 8px; margin-bottom: 8px; font-size: 13px; }
  .cust { cursor: pointer; }
  .cust.selected { border-color: #25d366; background: #e9fbe9; }
  code { word-break: break-all; font-size: 12px; background: #f5f5f5; padding: 1px 3px; }
  #chat { height: 50vh; overflow-y: auto; background: #efeae2; padding: 8px; border-radius: 6px; }
  .msg { max-width: 70%; margin: 4px 0; padding: 6px 8px; border-radius: 6px; background: #fff; clear: both; }
  .msg.in { float: right; background: #d9fdd3; }
  .msg.out { float: left; }
  .meta { font-size: 11px; color: #667; }
  .ticks.read { color: #34b7f1; }
  .err { color: #b00020; }
  .row { display: flex; gap: 6px; flex-wrap: wrap; align-items: center; margin-top: 6px; }
  .clear { clear: both; }
</style>
</head>
<body>
<header><span data-i18n="header">Simulador da API oficial do WhatsApp (Meta)</span>
  <!--stand-in-tabs-->
  <select id="lang" data-testid="language" aria-label="Idioma"><option value="pt">Português</option><option value="en">English</option><option value="es">Español</option></select>
</header>
<main>
  <div>
    <section>
      <h2 data-i18n="numbers">Números (aplicativo da Meta)</h2>
      <div id="numbers"></div>
      <button id="addNumber" data-testid="add-number" data-i18n="addNumber">Novo número</button>
      <div id="newCredentials" data-testid="new-credentials" class="meta"></div>
    </section>
    <section>
      <h2 data-i18n="templates">Modelos de mensagem</h2>
      <div id="templates"></div>
      <div class="row">
        <input id="tplName" placeholder="nome_do_modelo" size="14">
        <input id="tplBody" data-i18n-placeholder="tplBody" placeholder="Texto com {{1}}" size="18">
        <button id="addTpl" data-testid="add-template" data-i18n="add">Adicionar</button>
      </div>
    </section>
    <section>
      <h2 data-i18n="webhooks">Webhooks enviados</h2>
      <div id="log" class="meta"></div>
    </section>
  </div>
  <div>
    <section>
      <h2 data-i18n="customers">Clientes</h2>
      <div class="row">
        <select id="number" data-testid="number-select"></select>
        <input id="from" data-testid="customer-number" placeholder="5511999998888" size="14">
        <input id="name" data-testid="customer-name" data-i18n-placeholder="name" placeholder="Nome" size="12">
      </div>
      <div id="customers"></div>
    </section>
    <section>
      <h2 id="chatTitle" data-i18n="chat">Conversa</h2>
      <div id="chat" data-testid="chat"></div>
      <div class="row">
        <select id="type" data-testid="message-type">
          <option value="text" data-i18n="type.text">texto</option><option value="image" data-i18n="type.image">imagem</option>
          <option value="audio" data-i18n="type.audio">áudio</option><option value="video" data-i18n="type.video">vídeo</option>
          <option value="document" data-i18n="type.document">documento</option><option value="sticker" data-i18n="type.sticker">figurinha</option>
          <option value="location" data-i18n="type.location">localização</option><option value="contacts" data-i18n="type.contacts">contato</option>
          <option value="reaction" data-i18n="type.reaction">reação à última mensagem</option><option value="button" data-i18n="type.button">botão de modelo</option>
          <option value="interactive" data-i18n="type.interactive">resposta de botão</option>
        </select>
        <input id="text" data-testid="message-text" data-i18n-placeholder="message" placeholder="Mensagem" size="30">
        <input id="file" type="file">
        <label><span data-i18n="hoursAgo">enviada há (horas)</span> <input id="hoursAgo" data-testid="hours-ago" type="number" min="0" value="0" style="width:4em"></label>
        <button id="send" data-testid="send" data-i18n="send">Enviar</button>
      </div>
      <div class="row">
        <button id="read" data-testid="read" data-i18n="read">Ler mensagens</button>
        <label><input type="checkbox" id="autoRead" data-testid="auto-read"> <span data-i18n="autoRead">ler automaticamente</span></label>
      </div>
    </section>
  </div>
</main>
<script>
const TEXTS = {
  pt: { title: 'Simulador da API oficial (Cloud API)', header: 'Simulador da API oficial do WhatsApp (Meta)', numbers: 'Números (aplicativo da Meta)',
    addNumber: 'Novo número', templates: 'Modelos de mensagem', tplBody: 'Texto com {{1}}', add: 'Adicionar', webhooks: 'Webhooks enviados', customers: 'Clientes', name: 'Nome',
    chat: 'Conversa', message: 'Mensagem', hoursAgo: 'enviada há (horas)', send: 'Enviar', read: 'Ler mensagens', autoRead: 'ler automaticamente', language: 'Idioma',
    'type.text': 'texto', 'type.image': 'imagem', 'type.audio': 'áudio', 'type.video': 'vídeo', 'type.document': 'documento', 'type.sticker': 'figurinha', 'type.location': 'localização',
    'type.contacts': 'contato', 'type.reaction': 'reação à última mensagem', 'type.button': 'botão de modelo', 'type.interactive': 'resposta de botão',
    shownOnce: 'Copie agora: o token e a chave secreta deste número não são mostrados de novo.',
    phoneNumberId: 'ID do número', wabaId: 'ID da conta (WABA)', token: 'Token de acesso', secret: 'Chave secreta do app', callback: 'URL de retorno', verifyToken: 'Token de verificação',
    verify: 'Verificar e salvar', verified: 'verificado', notSet: 'não configurado', failed: 'falhou', approve: 'Aprovar', reject: 'Rejeitar', pending: 'Pendente', pickCustomer: 'Escolha ou informe um cliente' },
  en: { title: 'Official API simulator (Cloud API)', header: 'Official WhatsApp API simulator (Meta)', numbers: 'Numbers (Meta app)',
    addNumber: 'New number', templates: 'Message templates', tplBody: 'Text with {{1}}', add: 'Add', webhooks: 'Webhooks sent', customers: 'Customers', name: 'Name',
    chat: 'Chat', message: 'Message', hoursAgo: 'sent (hours ago)', send: 'Send', read: 'Read messages', autoRead: 'read automatically', language: 'Language',
    'type.text': 'text', 'type.image': 'image', 'type.audio': 'audio', 'type.video': 'video', 'type.document': 'document', 'type.sticker': 'sticker', 'type.location': 'location',
    'type.contacts': 'contact', 'type.reaction': 'reaction to the last message', 'type.button': 'template button', 'type.interactive': 'button reply',
    shownOnce: 'Copy them now: the token and app secret of this number are not shown again.',
    phoneNumberId: 'Phone number ID', wabaId: 'Business account ID (WABA)', token: 'Access token', secret: 'App secret', callback: 'Callback URL', verifyToken: 'Verify token',
    verify: 'Verify and save', verified: 'verified', notSet: 'not set', failed: 'failed', approve: 'Approve', reject: 'Reject', pending: 'Pending', pickCustomer: 'Pick or type a customer' },
  es: { title: 'Simulador de la API oficial (Cloud API)', header: 'Simulador de la API oficial de WhatsApp (Meta)', numbers: 'Números (aplicación de Meta)',
    addNumber: 'Nuevo número', templates: 'Plantillas de mensaje', tplBody: 'Texto con {{1}}', add: 'Agregar', webhooks: 'Webhooks enviados', customers: 'Clientes', name: 'Nombre',
    chat: 'Conversación', message: 'Mensaje', hoursAgo: 'enviado hace (horas)', send: 'Enviar', read: 'Leer mensajes', autoRead: 'leer automáticamente', language: 'Idioma',
    'type.text': 'texto', 'type.image': 'imagen', 'type.audio': 'audio', 'type.video': 'video', 'type.document': 'documento', 'type.sticker': 'sticker', 'type.location': 'ubicación',
    'type.contacts': 'contacto', 'type.reaction': 'reacción al último mensaje', 'type.button': 'botón de plantilla', 'type.interactive': 'respuesta de botón',
    shownOnce: 'Cópielos ahora: el token y la clave secreta de este número no se muestran de nuevo.',
    phoneNumberId: 'ID del número', wabaId: 'ID de la cuenta (WABA)', token: 'Token de acceso', secret: 'Clave secreta de la app', callback: 'URL de devolución', verifyToken: 'Token de verificación',
    verify: 'Verificar y guardar', verified: 'verificado', notSet: 'no configurado', failed: 'falló', approve: 'Aprobar', reject: 'Rechazar', pending: 'Pendiente', pickCustomer: 'Elija o informe un cliente' },
};
const LANGUAGE_KEY = 'language';
const storedLang = (() => { try { return localStorage.getItem(LANGUAGE_KEY); } catch (e) { return null; } })();
let lang = TEXTS[storedLang] ? storedLang : 'pt';
const tr = (key) => (TEXTS[lang] && TEXTS[lang][key]) || TEXTS.pt[key] || key;
function applyLanguage() {
  document.documentElement.lang = lang === 'pt' ? 'pt-BR' : lang;
  document.querySelectorAll('[data-i18n]').forEach((n) => { n.textContent = tr(n.dataset.i18n); });
  document.querySelectorAll('[data-i18n-placeholder]').forEach((n) => { n.placeholder = tr(n.dataset.i18nPlaceholder); });
  document.getElementById('lang').value = lang;
  document.getElementById('lang').setAttribute('aria-label', tr('language'));
}
document.getElementById('lang').onchange = (e) => {
  lang = TEXTS[e.target.value] ? e.target.value : 'pt';
  try { localStorage.setItem(LANGUAGE_KEY, lang); } catch (err) { /* private mode */ }
  applyLanguage(); render();
};
applyLanguage();
const api = (path, opts) => fetch('/simulator/cloudapi/api' + path, { headers: { 'content-type': 'application/json' }, ...opts }).then(async (r) => {
  const data = await r.json().catch(() => ({}));
  if (!r.ok) { alert(data.error || r.statusText); throw new Error(data.error); }
  return data;
});
const el = (tag, attrs, ...kids) => { const n = document.createElement(tag); Object.entries(attrs || {}).forEach(([k, v]) => { if (k === 'on') Object.entries(v).forEach(([e, f]) => n.addEventListener(e, f)); else if (k === 'text') n.textContent = v; else n.setAttribute(k, v); }); kids.forEach((k) => n.append(k)); return n; };
let state = { numbers: [], templates: [], chats: [], log: [] };
let selected = null; // { phoneNumberId, waId }
const drafts = {};
function render() {
  const nums = document.getElementById('numbers'); nums.innerHTML = '';
  const sel = document.getElementById('number'); const keep = sel.value; sel.innerHTML = '';
  for (const n of state.numbers) {
    sel.append(el('option', { value: n.phoneNumberId, text: n.displayPhoneNumber + ' (' + n.verifiedName + ')' }));
    const d = drafts[n.phoneNumberId] || (drafts[n.phoneNumberId] = { url: n.webhookUrl || '', token: n.verifyToken || '' });
    const url = el('input', { size: 40, 'data-testid': 'callback-' + n.phoneNumberId, placeholder: 'https://.../api/channels/cloud-api/webhook/...' }); url.value = d.url; url.oninput = () => { d.url = url.value; };
    const tok = el('input', { size: 20, 'data-testid': 'verify-token-' + n.phoneNumberId }); tok.value = d.token; tok.oninput = () => { d.token = tok.value; };
    nums.append(el('div', { class: 'num', 'data-testid': 'number-' + n.phoneNumberId },
      el('div', {}, el('b', { text: n.displayPhoneNumber }), ' — ' + n.verifiedName + ' · ' + n.qualityRating + ' · ' + n.messagingLimitTier),
      el('div', {}, tr('phoneNumberId') + ': ', el('code', { 'data-testid': 'phone-number-id', text: n.phoneNumberId })),
      el('div', {}, tr('wabaId') + ': ', el('code', { 'data-testid': 'waba-id', text: n.wabaId })),
      el('div', {}, tr('token') + ': ', el('code', { 'data-testid': 'access-token', text: n.accessToken })),
      el('div', {}, tr('secret') + ': ', el('code', { 'data-testid': 'app-secret', text: n.appSecret })),
      el('div', {}, tr('callback') + ': ', url), el('div', {}, tr('verifyToken') + ': ', tok),
      el('div', { class: 'row' }, el('button', { 'data-testid': 'verify-' + n.phoneNumberId, text: tr('verify'), on: { click: async () => {
        const out = await api('/numbers/' + n.phoneNumberId + '/webhook', { method: 'POST', body: JSON.stringify({ url: d.url, verifyToken: d.token }) });
        if (!out.ok) alert(tr('failed') + ' (' + out.status + ')'); refresh();
      } } }), el('span', { 'data-testid': 'webhook-state-' + n.phoneNumberId, text: n.webhookUrl ? tr('verified') : tr('notSet') }))));
  }
  if (keep) sel.value = keep;
  const tpls = document.getElementById('templates'); tpls.innerHTML = '';
  for (const t of state.templates) {
    const body = (t.components.find((c) => c.type === 'BODY') || {}).text || '';
    tpls.append(el('div', { class: 'tpl', 'data-testid': 'template-' + t.name },
      el('b', { text: t.name }), ' (' + t.language + ', ' + t.category + ') ', el('span', { 'data-testid': 'template-status', text: t.status }),
      el('div', { class: 'meta', text: body }),
      el('div', { class: 'row' },
        el('button', { text: tr('approve'), 'data-testid': 'approve-' + t.name, on: { click: () => api('/templates/' + t.id + '/status', { method: 'POST', body: JSON.stringify({ status: 'APPROVED' }) }).then(refresh) } }),
        el('button', { text: tr('reject'), on: { click: () => api('/templates/' + t.id + '/status', { method: 'POST', body: JSON.stringify({ status: 'REJECTED' }) }).then(refresh) } }),
        el('button', { text: tr('pending'), on: { click: () => api('/templates/' + t.id + '/status', { method: 'POST', body: JSON.stringify({ status: 'PENDING' }) }).then(refresh) } }))));
  }
  const custs = document.getElementById('customers'); custs.innerHTML = '';
  for (const c of state.chats) {
    const isSel = selected && selected.phoneNumberId === c.phoneNumberId && selected.waId === c.waId;
    custs.append(el('div', { class: 'cust' + (isSel ? ' selected' : ''), 'data-testid': 'customer-' + c.waId, on: { click: () => { selected = { phoneNumberId: c.phoneNumberId, waId: c.waId }; document.getElementById('from').value = c.waId; document.getElementById('name').value = c.name; document.getElementById('number').value = c.phoneNumberId; render(); } } },
      el('b', { text: c.name }), ' +' + c.waId + ' → ' + ((state.numbers.find((n) => n.phoneNumberId === c.phoneNumberId) || {}).displayPhoneNumber || '')));
  }
  const chat = document.getElementById('chat'); chat.innerHTML = '';
  const cur = selected && state.chats.find((c) => c.phoneNumberId === selected.phoneNumberId && c.waId === selected.waId);
  document.getElementById('autoRead').checked = !!(cur && cur.autoRead);
  if (cur) {
    document.getElementById('chatTitle').textContent = tr('chat') + ': ' + cur.name;
    for (const m of cur.messages) {
      const ticks = m.direction === 'out' ? (m.status === 'failed' ? '✗' : m.status === 'read' ? '✓✓' : m.status === 'delivered' ? '✓✓' : m.status === 'sent' ? '✓' : '🕓') : '';
      const text = m.reaction ? m.reaction.emoji + ' ↩' : (m.text || (m.mediaId ? '[' + m.type + (m.filename ? ': ' + m.filename : '') + ']' : '[' + m.type + ']'));
      // an interactive message: its buttons or list rows, pressed as the customer (issue 30)
      const press = (o) => api('/messages', { method: 'POST', body: JSON.stringify({ phoneNumberId: cur.phoneNumberId, from: cur.waId, type: 'interactive', replyKind: m.options.kind === 'list' ? 'list_reply' : 'button_reply', replyId: o.id, text: o.title, messageId: m.id }) }).then(refresh);
      const options = m.options ? el('div', { class: 'options' }, ...m.options.items.map((o) => el('button', { 'data-testid': 'option-' + o.id, text: o.title, on: { click: () => press(o) } }))) : '';
      chat.append(el('div', { class: 'msg ' + m.direction, 'data-testid': 'msg-' + m.direction, 'data-status': m.status, 'data-id': m.id },
        el('div', { text }), options,
        el('div', { class: 'meta' }, new Date(m.timestamp * 1000).toLocaleTimeString(), ' ', el('span', { class: 'ticks ' + m.status, text: ticks }),
          m.error ? el('span', { class: 'err', text: ' ' + m.error.code + ' ' + m.error.title }) : '')));
    }
    chat.append(el('div', { class: 'clear' }));
  }
  document.getElementById('log').innerHTML = state.log.slice(-12).reverse().map((l) => new Date(l.at).toLocaleTimeString() + ' ' + l.kind + ' → ' + l.status).join('<br>');
}
async function refresh() { state = await api('/state'); render(); }
// a new number's credentials are answered once (the simulator lists every number's secrets masked): shown here once
document.getElementById('addNumber').onclick = () => api('/numbers', { method: 'POST', body: '{}' }).then((n) => {
  const box = document.getElementById('newCredentials'); box.innerHTML = '';
  box.append(el('div', { text: tr('shownOnce') }), el('div', {}, n.displayPhoneNumber + ' · ' + tr('token') + ': ', el('code', { 'data-testid': 'new-access-token', text: n.accessToken })),
    el('div', {}, tr('secret') + ': ', el('code', { 'data-testid': 'new-app-secret', text: n.appSecret })));
  refresh();
});
document.getElementById('addTpl').onclick = () => {
  const name = document.getElementById('tplName').value.trim(); const body = document.getElementById('tplBody').value.trim();
  const n = state.numbers.find((x) => x.phoneNumberId === document.getElementById('number').value) || state.numbers[0];
  if (!name || !body || !n) return;
  api('/templates', { method: 'POST', body: JSON.stringify({ wabaId: n.wabaId, name, language: 'pt_BR', category: 'UTILITY', body }) }).then(refresh);
};
const fileBase64 = (f) => new Promise((res) => { const r = new FileReader(); r.onload = () => res(String(r.result).split(',')[1] || ''); r.readAsDataURL(f); });
document.getElementById('send').onclick = async () => {
  const phoneNumberId = document.getElementById('number').value; const from = document.getElementById('from').value.replace(/\\D/g, '');
  if (!phoneNumberId || !from) { alert(tr('pickCustomer')); return; }
  const type = document.getElementById('type').value; const text = document.getElementById('text').value;
  const body = { phoneNumberId, from, name: document.getElementById('name').value || undefined, type, text };
  const hours = Number(document.getElementById('hoursAgo').value) || 0;
  if (hours > 0) body.timestamp = Math.floor(Date.now() / 1000) - hours * 3600;
  const f = document.getElementById('file').files[0];
  if (f) { body.mediaBase64 = await fileBase64(f); body.mimeType = f.type || 'application/octet-stream'; body.filename = f.name; }
  else if (['image', 'audio', 'video', 'document', 'sticker'].includes(type)) { body.mediaBase64 = btoa('simulated ' + type); body.mimeType = type === 'image' ? 'image/jpeg' : type === 'audio' ? 'audio/ogg' : type === 'video' ? 'video/mp4' : type === 'sticker' ? 'image/webp' : 'application/pdf'; body.filename = type === 'document' ? 'documento.pdf' : undefined; }
  if (type === 'contacts') { body.contactName = text || 'Contato'; body.contactPhone = '+55 11 99999-0000'; }
  const cur = state.chats.find((c) => c.phoneNumberId === phoneNumberId && c.waId === from);
  const lastOut = cur && [...cur.messages].reverse().find((m) => m.direction === 'out');
  if (type === 'reaction') { body.messageId = lastOut ? lastOut.id : ''; body.emoji = text || '👍'; }
  if ((type === 'button' || type === 'interactive') && lastOut) body.messageId = lastOut.id;
  await api('/messages', { method: 'POST', body: JSON.stringify(body) });
  selected = { phoneNumberId, waId: from };
  document.getElementById('text').value = ''; document.getElementById('file').value = '';
  refresh();
};
document.getElementById('read').onclick = () => { if (selected) api('/read', { method: 'POST', body: JSON.stringify(selected) }).then(refresh); };
document.getElementById('autoRead').onchange = (e) => { if (selected) api('/auto-read', { method: 'POST', body: JSON.stringify({ ...selected, autoRead: e.target.checked }) }).then(refresh); };
refresh(); setInterval(() => refresh().catch(() => undefined), 1000);
</script>
</body>
</html>`;
