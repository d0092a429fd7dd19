/**
 * The simulator page: a person plays the phone (scans QR codes, unlinks) and the customers (chats in every
 * message type, delivered/read receipts). Plain HTML and script: it polls the simulator API once a second.
 */
export const SIMULATOR_PAGE = `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Simulador WhatsApp</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; background: #f0f2f5; color: #111; }
  header { background: #075e54; color: #fff; padding: 10px 16px; font-size: 18px; }
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
<header>Simulador WhatsApp — telefone e clientes</header>
<main>
  <section>
    <h2>Conexões (o telefone da empresa)</h2>
    <div id="connections"></div>
  </section>
  <section>
    <h2>Clientes</h2>
    <div id="customers"></div>
    <div class="row">
      <input id="newNumber" placeholder="5511999998888" size="14">
      <input id="newName" placeholder="Nome" size="10">
      <button id="addCustomer" data-testid="add-customer">Adicionar</button>
    </div>
  </section>
  <section>
    <h2 id="chatTitle">Conversa</h2>
    <div id="chat"></div>
    <div class="row">
      <select id="type" data-testid="message-type">
        <option value="text">texto</option><option value="image">imagem</option><option value="audio">áudio</option>
        <option value="video">vídeo</option><option value="document">documento</option><option value="sticker">figurinha</option>
        <option value="location">localização</option><option value="vcard">contato</option><option value="reaction">reação</option>
        <option value="call">chamada</option><option value="typing">digitando</option>
      </select>
      <input id="body" data-testid="message-body" placeholder="Mensagem" size="30">
      <input id="file" type="file">
      <input id="target" placeholder="id alvo (reação)" size="12">
      <button id="send" data-testid="send-message">Enviar</button>
    </div>
    <div class="row">
      <button id="delivered">Marcar entregue</button>
      <button id="read">Marcar lida</button>
      <label><input id="autoAck" type="checkbox" checked> confirmar automaticamente</label>
    </div>
  </section>
</main>
<script>
const api = (path, opts) => fetch('/simulator/api' + path, { headers: { 'content-type': 'application/json' }, ...opts }).then(async (r) => {
  const data = await r.json().catch(() => ({}));
  if (!r.ok) { alert(data.error || r.statusText); throw new Error(data.error); }
  return data;
});
let selected = null; let customer = null;
const el = (id) => document.getElementById(id);
const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const ticks = (ack) => ack >= 4 ? '✓✓ lida' : ack === 3 ? '✓✓' : ack >= 1 ? '✓' : '🕓';

async function renderConnections() {
  const list = await api('/connections');
  el('connections').innerHTML = list.map((c) => {
    const id = c.companyId + '-' + c.whatsappId;
    const sel = selected && selected.companyId === c.companyId && selected.whatsappId === c.whatsappId;
    return '<div class="conn' + (sel ? ' selected' : '') + '" data-id="' + id + '" data-testid="connection-' + id + '">' +
      '<div>Empresa ' + c.companyId + ' · conexão ' + c.whatsappId + '</div>' +
      '<div class="status" data-testid="status-' + id + '">' + esc(c.status) + (c.number ? ' · +' + esc(c.number) : '') + '</div>' +
      (c.qrImage ? '<img class="qr" alt="QR" src="' + c.qrImage + '">' +
        '<div class="row"><input placeholder="número do telefone" size="14" id="num-' + id + '">' +
        '<button data-scan="' + id + '" data-testid="scan-' + id + '">Escanear QR</button></div>' : '') +
      (c.number ? '<div class="row"><button data-unlink="' + id + '">Desconectar aparelho</button></div>' : '') +
      '</div>';
  }).join('') || '<p>Nenhuma conexão ativa. Adicione uma conexão na plataforma.</p>';
}

async function renderCustomers() {
  const list = await api('/customers');
  el('customers').innerHTML = list.map((c) => '<div class="cust' + (customer === c.number ? ' selected' : '') + '" data-number="' + c.number + '" data-testid="customer-' + c.number + '">' + esc(c.name) + '<br><small>+' + c.number + '</small></div>').join('');
}

async function renderChat() {
  if (!selected || !customer) { el('chat').innerHTML = '<p>Escolha uma conexão conectada e um cliente.</p>'; return; }
  const q = '?companyId=' + selected.companyId + '&whatsappId=' + selected.whatsappId;
  const chat = await api('/customers/' + customer + '/messages' + q).catch(() => null);
  if (!chat) return;
  el('chatTitle').textContent = 'Conversa: ' + chat.customer.name + (chat.presence ? ' — empresa ' + (chat.presence === 'composing' ? 'digitando…' : 'gravando…') : '');
  el('autoAck').checked = chat.customer.autoAck;
  const atBottom = el('chat').scrollTop + el('chat').clientHeight >= el('chat').scrollHeight - 20;
  el('chat').innerHTML = chat.messages.map((m) => {
    let content = esc(m.body);
    if (m.media) {
      const src = m.fromCustomer ? '/simulator/api/media?id=' + m.id : '/simulator/api/media?key=' + encodeURIComponent(m.media.key) + '&type=' + encodeURIComponent(m.media.mimetype);
      if (m.media.mimetype.startsWith('image/')) content = '<img class="media" src="' + src + '">' + content;
      else if (m.media.mimetype.startsWith('audio/')) content = '<audio controls src="' + src + '"></audio>' + content;
      else content = '<a href="' + src + '" target="_blank">' + esc(m.media.filename || 'arquivo') + '</a> ' + content;
    }
    if (m.isDeleted) content = '<span class="deleted">🚫 Mensagem apagada</span>';
    const reactions = m.reactions.map((r) => r.emoji).join(' ');
    return '<div class="msg ' + (m.fromCustomer ? 'customer' : 'business') + '" data-testid="msg" data-id="' + m.id + '">' + content +
      (reactions ? '<div>' + esc(reactions) + '</div>' : '') +
      '<div class="meta">' + esc(m.type) + (m.edited ? ' · editada' : '') + ' · ' + (m.fromCustomer ? (m.ack >= 4 ? 'lida pela empresa' : '') : ticks(m.ack)) + ' · <span title="id">' + esc(m.id) + '</span></div></div>';
  }).join('') + '<div style="clear:both"></div>';
  if (atBottom) el('chat').scrollTop = el('chat').scrollHeight;
}

async function refresh() {
  try { await Promise.all([renderConnections(), renderCustomers(), renderChat()]); } catch (e) { /* shown on next tick */ }
}

document.body.addEventListener('click', async (e) => {
  const t = e.target.closest('[data-scan],[data-unlink],.conn,.cust');
  if (!t) return;
  if (t.dataset.scan) {
    const [co, wa] = t.dataset.scan.split('-');
    const number = (el('num-' + t.dataset.scan) || {}).value;
    t.disabled = true; t.textContent = 'Pareando…';
    await api('/connections/' + co + '/' + wa + '/scan', { method: 'POST', body: JSON.stringify({ number: number || undefined }) }).catch(() => {});
    selected = { companyId: Number(co), whatsappId: Number(wa) };
  } else if (t.dataset.unlink) {
    const [co, wa] = t.dataset.unlink.split('-');
    if (confirm('Desconectar este aparelho?')) await api('/connections/' + co + '/' + wa + '/disconnect', { method: 'POST' });
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
  if (!selected || !customer) return alert('Escolha uma conexão e um cliente');
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
