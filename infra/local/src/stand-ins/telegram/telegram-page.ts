import { TABS_PLACEHOLDER } from "../registry";

/** The page's words in pt (default), en and es, picked by the app's `language` choice (localStorage). */
export const TELEGRAM_PAGE_STRINGS = {
  pt: { name: "Nome", text: "Mensagem", send: "Enviar", edit: "Editar última", photo: "Foto", document: "Documento", voice: "Voz", sendFile: "Enviar arquivo", location: "Localização", contact: "Contato", edited: "(editada)" },
  en: { name: "Name", text: "Message", send: "Send", edit: "Edit last", photo: "Photo", document: "Document", voice: "Voice", sendFile: "Send file", location: "Location", contact: "Contact", edited: "(edited)" },
  es: { name: "Nombre", text: "Mensaje", send: "Enviar", edit: "Editar el último", photo: "Foto", document: "Documento", voice: "Voz", sendFile: "Enviar archivo", location: "Ubicación", contact: "Contacto", edited: "(editado)" },
};

/** The /simulator tab that plays a Telegram user: write, send a file/location/contact, edit, see the bot's replies. */
export const TELEGRAM_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Telegram</title>
<style>body{font-family:system-ui,sans-serif;margin:0}main{max-width:720px;margin:16px auto;padding:0 12px}
#log{border:1px solid #ccc;border-radius:8px;height:360px;overflow:auto;padding:8px;background:#eef3f8}
.user{text-align:right}.line span{display:inline-block;padding:6px 10px;border-radius:10px;margin:3px;background:#fff}
.user span{background:#d6f5c9}input,button,select{font-size:14px;margin:4px 2px}</style></head><body>${TABS_PLACEHOLDER}
<main><h2>Telegram</h2>
<div><label>Id <input id="uid" value="700001" size="9"></label><label><span data-t="name"></span> <input id="name" value="Cliente Telegram"></label>
<label>@ <input id="username" value="cliente_tg" size="12"></label></div>
<div id="log" data-testid="telegram-log"></div>
<div><input id="text" size="40" data-testid="telegram-text"><button id="send" data-t="send" data-testid="telegram-send"></button>
<button id="edit" data-t="edit"></button></div>
<div><select id="kind"><option value="photo" data-t="photo"></option><option value="document" data-t="document"></option><option value="voice" data-t="voice"></option></select>
<input type="file" id="file"><button id="sendFile" data-t="sendFile"></button><button id="loc" data-t="location"></button><button id="contact" data-t="contact"></button></div>
<p id="status"></p></main>
<script>
const S=${JSON.stringify(TELEGRAM_PAGE_STRINGS)};
let lang=localStorage.getItem('language');if(lang!=='en'&&lang!=='es')lang='pt';const T=S[lang];
document.querySelectorAll('[data-t]').forEach(e=>e.textContent=T[e.getAttribute('data-t')]);
const $=(id)=>document.getElementById(id);$("text").placeholder=T.text;
const who=()=>({userId:Number($("uid").value),name:$("name").value,username:$("username").value});
const post=async(b)=>{const r=await fetch("/simulator/telegram/api/updates",{method:"POST",headers:{"content-type":"application/json"},body:JSON.stringify({...who(),...b})});const j=await r.json();$("status").textContent=j.error||("webhook: "+j.status);refresh();};
$("send").onclick=()=>{post({kind:"text",text:$("text").value});$("text").value="";};
$("edit").onclick=()=>post({kind:"edit",text:$("text").value});
$("loc").onclick=()=>post({kind:"location",latitude:-23.5505,longitude:-46.6333});
$("contact").onclick=()=>post({kind:"contact",contactName:"Bia",phone:"+5511988887777"});
$("sendFile").onclick=async()=>{const f=$("file").files[0];if(!f)return;const buf=new Uint8Array(await f.arrayBuffer());let s="";for(const x of buf)s+=String.fromCharCode(x);
post({kind:$("kind").value,fileBase64:btoa(s),fileName:f.name,mimeType:f.type||"application/octet-stream",text:$("text").value});};
async function refresh(){const lines=await (await fetch("/simulator/telegram/api/chats/"+who().userId)).json();const log=$("log");log.innerHTML="";
for(const l of lines){const d=document.createElement("div");d.className="line "+l.from;const s=document.createElement("span");s.textContent=l.text+(l.edited?" "+T.edited:"");d.appendChild(s);log.appendChild(d);}
log.scrollTop=log.scrollHeight;}
setInterval(refresh,1000);refresh();
</script></body></html>`;
