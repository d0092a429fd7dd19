/**
 * The simulator page: a person plays the phone (scans QR codes, unlinks) and the customers (chats in every
 * message type, delivered/read receipts). Plain HTML and script: it polls the simulator API once a second.
 * It speaks pt (default), en and es; the choice is the app's own (localStorage `language`, same origin), and
 * changing it here changes it there too.
 */
/** the tab bar (stand-in registry, ../registry.ts) goes where `<!--stand-in-tabs-->` is */
export const SIMULATOR_PAGE = `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title data-i18n="title">Simulador WhatsApp</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; background: #f0f2f5; color: #111; }
  header { background: #075e54; color: #fff; padding: 10px 16px; font-size: 18px; display: flex; align-items: center; gap: 12px; }
  header span { flex: 1; }
  nav.stand-in-tabs a { color: #fff; margin-right: 12px; }
  nav.stand-in-tabs a.active { font-weight: 700; }
  main { display: grid; grid-template-columns: 320px 260px 1fr; gap: 12px; padding: 12px; }
  section { background: #fff; border-radius: 8px; padding: 12px; min-height: 200px; }
  h2 { font-size: 15px; margin: 0 0 8px; }
  .conn { border: 1px solid #ddd; border-radius: 6px; padding: 8px; margin-bottom: 8px; cursor: pointer; }
  .conn.selected, .cust.selected { border-color: #25d366; background: #e9fbe9; }
  .status { font-weight: 600; }
  .cust { border: 1px solid #ddd; border-radius: 6px; padding: 6px; margin-bottom: 6px; cursor: pointer; }
  #chat { height: 55vh; overflow-y: auto; background: #efeae2; padding: 8px; border-radius: 6px; }
  .msg { max-width: 70%; margin: 4px 0; padding: 6px 8px; border-radius: 6px; background: #fff; clear: both; }
  .msg.customer { float: right; background: #d9fdd3; }
  .msg.business { float: left; }
  .meta { font-size: 11px; color: #667; }
  .deleted { color: #999; font-style: italic; }
  button { cursor: pointer; }
  input, select { margin: 2px 0; }
  .row { display: flex; gap: 6px; flex-wrap: wrap; align-items: center; margin-top: 6px; }
  img.qr { width: 200px; height: 200px; display: block; margin: 6px 0; }
  img.media { max-width: 200px; display: block; }
</style>
</head>
<body>
<header><span data-i18n="header">Simulador WhatsApp — telefone e clientes</span>
  <!--stand-in-tabs-->
  <select id="lang" data-testid="language" aria-label="Idioma"><option value="pt">Português</option><option value="en">English</option><option value="es">Español</option></select>
</header>
<main>
  <section>
    <h2 data-i18n="connections">Conexões (o telefone da empresa)</h2>
    <div id="connections"></div>
  </section>
  <section>
    <h2 data-i18n="customers">Clientes</h2>
    <div id="customers"></div>
    <div class="row">
      <input id="newNumber" placeholder="5511999998888" size="14">
      <input id="newName" data-i18n-placeholder="name" placeholder="Nome" size="10">
      <button id="addCustomer" data-testid="add-customer" data-i18n="add">Adicionar</button>
    </div>
  </section>
  <section>
    <h2 id="chatTitle" data-i18n="chat">Conversa</h2>
    <div id="chat"></div>
    <div class="row">
      <select id="type" data-testid="message-type">
        <option value="text" data-i18n="type.text">texto</option><option value="image" data-i18n="type.image">imagem</option><option value="audio" data-i18n="type.audio">áudio</option>
        <option value="video" data-i18n="type.video">vídeo</option><option value="document" data-i18n="type.document">documento</option><option value="sticker" data-i18n="type.sticker">figurinha</option>
        <option value="location" data-i18n="type.location">localização</option><option value="vcard" data-i18n="type.vcard">contato</option><option value="reaction" data-i18n="type.reaction">reação</option>
        <option value="call" data-i18n="type.call">chamada</option><option value="typing" data-i18n="type.typing">digitando</option>
      </select>
      <input id="body" data-testid="message-body" data-i18n-placeholder="message" placeholder="Mensagem" size="30">
      <input id="file" type="file">
      <input id="target" data-i18n-placeholder="target" placeholder="id alvo (reação)" size="12">
      <button id="send" data-testid="send-message" data-i18n="send">Enviar</button>
    </div>
    <div class="row">
      <button id="delivered" data-i18n="markDelivered">Marcar entregue</button>
      <button id="read" data-i18n="markRead">Marcar lida</button>
      <label><input id="autoAck" type="checkbox" checked> <span data-i18n="autoAck">confirmar automaticamente</span></label>
    </div>
  </section>
</main>
<script>
const TEXTS = {
  pt: {
    title: 'Simulador WhatsApp', header: 'Simulador WhatsApp — telefone e clientes', connections: 'Conexões (o telefone da empresa)',
    customers: 'Clientes', name: 'Nome', add: 'Adicionar', chat: 'Conversa', message: 'Mensagem', target: 'id alvo (reação)', send: 'Enviar',
    markDelivered: 'Marcar entregue', markRead: 'Marcar lida', autoAck: 'confirmar automaticamente', language: 'Idioma',
    'type.text': 'texto', 'type.image': 'imagem', 'type.audio': 'áudio', 'type.video': 'vídeo', 'type.document': 'documento', 'type.sticker': 'figurinha',
    'type.location': 'localização', 'type.vcard': 'contato', 'type.reaction': 'reação', 'type.call': 'chamada', 'type.typing': 'digitando',
    company: 'Empresa', connection: 'conexão', phoneNumber: 'número do telefone', scan: 'Escanear QR', passkeyPhone: 'celular com chave de acesso (passkey)', passkeyHint: 'O WhatsApp pede a chave de acesso do celular para vincular: a conexão QR para em PASSKEY_REQUIRED', pairing: 'Pareando…', unlink: 'Desconectar aparelho',
    thisPhone: 'número deste celular', code: 'código de 8 letras', enterCode: 'Conectar com código',
    unlinkConfirm: 'Desconectar este aparelho?', noConnections: 'Nenhuma conexão ativa. Adicione uma conexão na plataforma.',
    pickBoth: 'Escolha uma conexão conectada e um cliente.', pickBothShort: 'Escolha uma conexão e um cliente', chatWith: 'Conversa: ',
    businessTyping: ' — empresa digitando…', businessRecording: ' — empresa gravando…', deleted: '🚫 Mensagem apagada', edited: 'editada',
    readByBusiness: 'lida pela empresa', read: 'lida', file: 'arquivo',
  },
  en: {
    title: 'WhatsApp simulator', header: 'WhatsApp simulator — phone and customers', connections: 'Connections (the company phone)',
    customers: 'Customers', name: 'Name', add: 'Add', chat: 'Chat', message: 'Message', target: 'target id (reaction)', send: 'Send',
    markDelivered: 'Mark delivered', markRead: 'Mark read', autoAck: 'acknowledge automatically', language: 'Language',
    'type.text': 'text', 'type.image': 'image', 'type.audio': 'audio', 'type.video': 'video', 'type.document': 'document', 'type.sticker': 'sticker',
    'type.location': 'location', 'type.vcard': 'contact', 'type.reaction': 'reaction', 'type.call': 'call', 'type.typing': 'typing',
    company: 'Company', connection: 'connection', phoneNumber: 'phone number', scan: 'Scan QR', passkeyPhone: 'passkey-protected phone', passkeyHint: 'WhatsApp asks for the phone’s passkey to link it: the QR connection stops at PASSKEY_REQUIRED', pairing: 'Pairing…', unlink: 'Unlink device',
    thisPhone: "this phone's number", code: '8-letter code', enterCode: 'Link with code',
    unlinkConfirm: 'Unlink this device?', noConnections: 'No active connection. Add a connection on the platform.',
    pickBoth: 'Choose a connected connection and a customer.', pickBothShort: 'Choose a connection and a customer', chatWith: 'Chat: ',
    businessTyping: ' — company typing…', businessRecording: ' — company recording…', deleted: '🚫 Message deleted', edited: 'edited',
    readByBusiness: 'read by the company', read: 'read', file: 'file',
  },
  es: {
    title: 'Simulador de WhatsApp', header: 'Simulador de WhatsApp — teléfono y clientes', connections: 'Conexiones (el teléfono de la empresa)',
    customers: 'Clientes', name: 'Nombre', add: 'Agregar', chat: 'Conversación', message: 'Mensaje', target: 'id destino (reacción)', send: 'Enviar',
    markDelivered: 'Marcar entregado', markRead: 'Marcar leído', autoAck: 'confirmar automáticamente', language: 'Idioma',
    'type.text': 'texto', 'type.image': 'imagen', 'type.audio': 'audio', 'type.video': 'video', 'type.document': 'documento', 'type.sticker': 'sticker',
    'type.location': 'ubicación', 'type.vcard': 'contacto', 'type.reaction': 'reacción', 'type.call': 'llamada', 'type.typing': 'escribiendo',
    company: 'Empresa', connection: 'conexión', phoneNumber: 'número del teléfono', scan: 'Escanear QR', passkeyPhone: 'teléfono con llave de acceso (passkey)', passkeyHint: 'WhatsApp pide la llave de acceso del teléfono para vincularlo: la conexión QR se detiene en PASSKEY_REQUIRED', pairing: 'Emparejando…', unlink: 'Desconectar dispositivo',
    thisPhone: 'número de este teléfono', code: 'código de 8 letras', enterCode: 'Vincular con código',
    unlinkConfirm: '¿Desconectar este dispositivo?', noConnections: 'Ninguna conexión activa. Agregue una conexión en la plataforma.',
    pickBoth: 'Elija una conexión conectada y un cliente.', pickBothShort: 'Elija una conexión y un cliente', chatWith: 'Conversación: ',
    businessTyping: ' — empresa escribiendo…', businessRecording: ' — empresa grabando…', deleted: '🚫 Mensaje eliminado', edited: 'editado',
    readByBusiness: 'leído por la empresa', read: 'leído', file: 'archivo',
  },
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
  try { localStorage.setItem(LANGUAGE_KEY, lang); } catch (err) { /* private mode: this page only */ }
  applyLanguage(); refresh();
};
applyLanguage();
const api = (path, opts) => fetch('/simulator/api' + path, { headers: { 'content-type': 'application/json' }, ...opts }).then(async (r) => {
  const data = await r.json().catch(() => ({}));
  if (!r.ok) { alert(data.error || r.statusText); throw new Error(data.error); }
  return data;
});
let selected = null; let customer = null;
const el = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const ticks = (ack) => ack >= 4 ? '✓✓ ' + tr('read') : ack === 3 ? '✓✓' : ack >= 1 ? '✓' : '🕓';

async function renderConnections() {
  const list = await api('/connections');
  // what the person is typing survives the once-a-second redraw
  const typed = [...el('connections').querySelectorAll('input')].map((i) => [i.id, i.value, document.activeElement === i, i.checked]);
  el('connections').innerHTML = list.map((c) => {
    const id = c.companyId + '-' + c.whatsappId;
    const sel = selected && selected.companyId === c.companyId && selected.whatsappId === c.whatsappId;
    return '<div class="conn' + (sel ? ' selected' : '') + '" data-id="' + id + '" data-testid="connection-' + id + '">' +
      '<div>' + tr('company') + ' ' + c.companyId + ' · ' + tr('connection') + ' ' + c.whatsappId + '</div>' +
      '<div class="status" data-testid="status-' + id + '">' + esc(c.status) + (c.number ? ' · +' + esc(c.number) : '') + '</div>' +
      (c.qrImage ? '<img class="qr" alt="QR" src="' + c.qrImage + '">' +
        '<div class="row"><input placeholder="' + esc(tr('phoneNumber')) + '" size="14" id="num-' + id + '">' +
        '<button data-scan="' + id + '" data-testid="scan-' + id + '">' + esc(tr('scan')) + '</button></div>' +
        '<div class="row"><label title="' + esc(tr('passkeyHint')) + '"><input type="checkbox" id="passkey-' + id + '" data-testid="passkey-' + id + '"> ' + esc(tr('passkeyPhone')) + '</label></div>' : '') +
      (c.pairingCodeIssued ? '<div class="row"><input placeholder="' + esc(tr('thisPhone')) + '" size="14" id="pnum-' + id + '" data-testid="pairing-number-' + id + '">' +
        '<input placeholder="' + esc(tr('code')) + '" size="10" id="pcode-' + id + '" data-testid="pairing-code-' + id + '">' +
        '<button data-pair="' + id + '" data-testid="enter-code-' + id + '">' + esc(tr('enterCode')) + '</button></div>' : '') +
      (c.number ? '<div class="row"><button data-unlink="' + id + '">' + esc(tr('unlink')) + '</button></div>' : '') +
      '</div>';
  }).join('') || '<p>' + esc(tr('noConnections')) + '</p>';
  for (const [id, value, focused, checked] of typed) { const i = el(id); if (i) { i.value = value; i.checked = checked; if (focused) i.focus(); } }
}

async function renderCustomers() {
  const list = await api('/customers');
  el('customers').innerHTML = list.map((c) => '<div class="cust' + (customer === c.number ? ' selected' : '') + '" data-number="' + esc(c.number) + '" data-testid="customer-' + esc(c.number) + '">' + esc(c.name) + '<br><small>+' + esc(c.number) + '</small></div>').join('');
}

async function renderChat() {
  if (!selected || !customer) { el('chat').innerHTML = '<p>' + esc(tr('pickBoth')) + '</p>'; return; }
  const q = '?companyId=' + selected.companyId + '&whatsappId=' + selected.whatsappId;
  const chat = await api('/customers/' + customer + '/messages' + q).catch(() => null);
  if (!chat) return;
  el('chatTitle').textContent = tr('chatWith') + chat.customer.name + (chat.presence ? tr(chat.presence === 'composing' ? 'businessTyping' : 'businessRecording') : '');
  el('autoAck').checked = chat.customer.autoAck;
  const atBottom = el('chat').scrollTop + el('chat').clientHeight >= el('chat').scrollHeight - 20;
  el('chat').innerHTML = chat.messages.map((m) => {
    let content = esc(m.body);
    if (m.media) {
      const src = '/simulator/api/media?phone=' + encodeURIComponent(customer) + '&id=' + encodeURIComponent(m.media.id);
      if (m.media.mimetype.startsWith('image/')) content = '<img class="media" src="' + esc(src) + '">' + content;
      else if (m.media.mimetype.startsWith('audio/')) content = '<audio controls src="' + esc(src) + '"></audio>' + content;
      else content = '<a href="' + esc(src) + '" target="_blank" rel="noopener">' + esc(m.media.filename || tr('file')) + '</a> ' + content;
    }
    if (m.isDeleted) content = '<span class="deleted">' + esc(tr('deleted')) + '</span>';
    const reactions = m.reactions.map((r) => r.emoji).join(' ');
    return '<div class="msg ' + (m.fromCustomer ? 'customer' : 'business') + '" data-testid="msg" data-id="' + esc(m.id) + '">' + content +
      (reactions ? '<div>' + esc(reactions) + '</div>' : '') +
      '<div class="meta">' + esc(m.type) + (m.edited ? ' · ' + esc(tr('edited')) : '') + ' · ' + (m.fromCustomer ? (m.ack >= 4 ? esc(tr('readByBusiness')) : '') : ticks(m.ack)) + ' · <span title="id">' + esc(m.id) + '</span></div></div>';
  }).join('') + '<div style="clear:both"></div>';
  if (atBottom) el('chat').scrollTop = el('chat').scrollHeight;
}

async function refresh() {
  try { await Promise.all([renderConnections(), renderCustomers(), renderChat()]); } catch (e) { /* shown on next tick */ }
}

document.body.addEventListener('click', async (e) => {
  const t = e.target.closest('[data-scan],[data-pair],[data-unlink],.conn,.cust');
  if (!t) return;
  if (t.dataset.scan) {
    const [co, wa] = t.dataset.scan.split('-');
    const number = (el('num-' + t.dataset.scan) || {}).value;
    t.disabled = true; t.textContent = tr('pairing');
    const passkey = Boolean((el('passkey-' + t.dataset.scan) || {}).checked);
    await api('/connections/' + co + '/' + wa + '/scan', { method: 'POST', body: JSON.stringify({ number: number || undefined, passkey }) }).catch(() => {});
    selected = { companyId: Number(co), whatsappId: Number(wa) };
  } else if (t.dataset.pair) {
    const [co, wa] = t.dataset.pair.split('-');
    const number = (el('pnum-' + t.dataset.pair) || {}).value;
    const code = (el('pcode-' + t.dataset.pair) || {}).value;
    t.disabled = true; t.textContent = tr('pairing');
    await api('/connections/' + co + '/' + wa + '/pairing-code', { method: 'POST', body: JSON.stringify({ number, code }) }).catch(() => {});
    selected = { companyId: Number(co), whatsappId: Number(wa) };
  } else if (t.dataset.unlink) {
    const [co, wa] = t.dataset.unlink.split('-');
    if (confirm(tr('unlinkConfirm'))) await api('/connections/' + co + '/' + wa + '/disconnect', { method: 'POST' });
  } else if (t.classList.contains('conn')) {
    const [co, wa] = t.dataset.id.split('-');
    selected = { companyId: Number(co), whatsappId: Number(wa) };
  } else if (t.classList.contains('cust')) {
    customer = t.dataset.number;
  }
  refresh();
});

el('addCustomer').onclick = async () => {
  const c = await api('/customers', { method: 'POST', body: JSON.stringify({ number: el('newNumber').value, name: el('newName').value || undefined }) });
  customer = c.number; el('newNumber').value = ''; el('newName').value = ''; refresh();
};

const fileBase64 = (file) => new Promise((res) => { const r = new FileReader(); r.onload = () => res(String(r.result).split(',')[1]); r.readAsDataURL(file); });

el('send').onclick = async () => {
  if (!selected || !customer) return alert(tr('pickBothShort'));
  const type = el('type').value;
  const payload = { companyId: selected.companyId, whatsappId: selected.whatsappId, type, body: el('body').value };
  const file = el('file').files[0];
  if (file) Object.assign(payload, { mediaBase64: await fileBase64(file), mimetype: file.type || 'application/octet-stream', filename: file.name });
  if (type === 'reaction') Object.assign(payload, { targetId: el('target').value, emoji: el('body').value || '👍' });
  await api('/customers/' + customer + '/messages', { method: 'POST', body: JSON.stringify(payload) });
  el('body').value = ''; el('file').value = ''; refresh();
};
const ack = (n) => async () => {
  if (!selected || !customer) return;
  await api('/customers/' + customer + '/acks', { method: 'POST', body: JSON.stringify({ companyId: selected.companyId, whatsappId: selected.whatsappId, ack: n }) });
  refresh();
};
el('delivered').onclick = ack(3);
el('read').onclick = ack(4);
el('autoAck').onchange = async () => {
  if (!customer) return;
  await api('/customers/' + customer, { method: 'PATCH', body: JSON.stringify({ autoAck: el('autoAck').checked }) });
};
el('body').addEventListener('keydown', (e) => { if (e.key === 'Enter') el('send').click(); });
refresh();
setInterval(refresh, 1000);
</script>
</body>
</html>`;
