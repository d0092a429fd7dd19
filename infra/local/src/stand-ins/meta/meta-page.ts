import { TABS_BAR } from "../registry";

/** The page's words in pt (default), en and es, picked by the app's `language` choice (localStorage). */
export const META_PAGE_STRINGS = {
  pt: { title: "Messenger e Instagram", channel: "Canal", user: "Id do usuário", name: "Nome", text: "Mensagem", send: "Enviar", image: "Enviar imagem", storyReply: "Responder ao story", mention: "Mencionar em story", react: "Reagir à última resposta", noPage: "Nenhuma página: salve a conexão primeiro", webhook: "webhook", you: "Você", company: "Empresa", tagged: "fora das 24 h (HUMAN_AGENT)" },
  en: { title: "Messenger and Instagram", channel: "Channel", user: "User id", name: "Name", text: "Message", send: "Send", image: "Send image", storyReply: "Reply to story", mention: "Mention in a story", react: "React to the last reply", noPage: "No page: save the connection first", webhook: "webhook", you: "You", company: "Company", tagged: "after 24 h (HUMAN_AGENT)" },
  es: { title: "Messenger e Instagram", channel: "Canal", user: "Id del usuario", name: "Nombre", text: "Mensaje", send: "Enviar", image: "Enviar imagen", storyReply: "Responder a la historia", mention: "Mencionar en una historia", react: "Reaccionar a la última respuesta", noPage: "Ninguna página: guarde la conexión primero", webhook: "webhook", you: "Usted", company: "Empresa", tagged: "fuera de las 24 h (HUMAN_AGENT)" },
} as const;

/**
 * The /simulator tab that plays a Messenger user and an Instagram user (issue 31): send text, an image, an Instagram
 * story reply or mention, a reaction; the company's replies appear in the chat (polled from the stand-in).
 */
export const META_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Messenger / Instagram</title>
<style>body{font-family:system-ui,sans-serif;margin:0}main{max-width:720px;margin:16px auto;padding:0 12px}
#log{border:1px solid #ccc;border-radius:8px;height:360px;overflow:auto;padding:8px;background:#f0f2f5}
.user{text-align:right}.line span{display:inline-block;padding:6px 10px;border-radius:14px;margin:3px;background:#fff;max-width:70%;text-align:left}
.user span{background:#0084ff;color:#fff}.line img{max-width:160px;display:block;border-radius:8px}.line small{display:block;opacity:.7}
input,button,select{font-size:14px;margin:4px 2px}</style></head><body>${TABS_BAR}
<main><h2 data-t="title"></h2>
<div><label><span data-t="channel"></span> <select id="page" data-testid="meta-page"></select></label>
<label><span data-t="user"></span> <input id="uid" size="18" data-testid="meta-user"></label>
<label><span data-t="name"></span> <input id="name" value="Cliente Meta" data-testid="meta-name"></label></div>
<div id="log" data-testid="meta-log"></div>
<div><input id="text" size="40" data-testid="meta-text"><button id="send" data-t="send" data-testid="meta-send"></button></div>
<div><input type="file" id="file" accept="image/*"><button id="image" data-t="image" data-testid="meta-image"></button>
<button id="storyReply" data-t="storyReply" class="ig"></button><button id="mention" data-t="mention" class="ig"></button>
<button id="react" data-t="react" data-testid="meta-react"></button></div>
<p id="status" data-testid="meta-status"></p></main>
<script>
const S=${JSON.stringify(META_PAGE_STRINGS)};
let lang=localStorage.getItem('language');if(lang!=='en'&&lang!=='es')lang='pt';const T=S[lang];
document.querySelectorAll('[data-t]').forEach(e=>e.textContent=T[e.getAttribute('data-t')]);
const $=(id)=>document.getElementById(id);$("text").placeholder=T.text;
const B="/simulator/meta/";
let pages=[];
const page=()=>pages.find(p=>p.pageId===$("page").value);
const defaults={messenger:"24000000000000001",instagram:"17841400000000001"};
async function loadPages(){pages=await (await fetch(B+"api/pages")).json();const sel=$("page");const cur=sel.value;sel.innerHTML="";
for(const p of pages){const o=document.createElement("option");o.value=p.pageId;o.textContent=(p.provider==="instagram"?"Instagram ":"Messenger ")+p.name;sel.appendChild(o);}
if(cur)sel.value=cur;onPage();if(!pages.length)$("status").textContent=T.noPage;}
function onPage(){const p=page();if(!p)return;if(!$("uid").value||Object.values(defaults).includes($("uid").value))$("uid").value=defaults[p.provider];
document.querySelectorAll(".ig").forEach(b=>b.style.display=p.provider==="instagram"?"":"none");refresh();}
$("page").onchange=onPage;
const post=async(b)=>{const p=page();if(!p)return;const r=await fetch(B+"api/events",{method:"POST",headers:{"content-type":"application/json"},body:JSON.stringify({pageId:p.pageId,userId:$("uid").value,name:$("name").value,...b})});
const j=await r.json();$("status").textContent=j.error||(T.webhook+": "+j.status);refresh();};
const fileB64=async()=>{const f=$("file").files[0];if(!f)return null;const buf=new Uint8Array(await f.arrayBuffer());let s="";for(const x of buf)s+=String.fromCharCode(x);return {fileBase64:btoa(s),mimeType:f.type||"image/jpeg"};};
$("send").onclick=()=>{post({kind:"text",text:$("text").value});$("text").value="";};
$("image").onclick=async()=>post({kind:"image",text:$("text").value,...(await fileB64()||{})});
$("storyReply").onclick=async()=>post({kind:"story_reply",text:$("text").value,...(await fileB64()||{})});
$("mention").onclick=async()=>post({kind:"story_mention",...(await fileB64()||{})});
$("react").onclick=()=>post({kind:"reaction",emoji:"❤️"});
async function refresh(){const p=page();if(!p)return;const lines=await (await fetch(B+"api/chats/"+p.pageId+"/"+encodeURIComponent($("uid").value))).json();const log=$("log");log.innerHTML="";
for(const l of lines){const d=document.createElement("div");d.className="line "+l.from;d.setAttribute("data-testid","meta-line-"+l.from);const s=document.createElement("span");
if(l.mediaUrl&&(l.kind==="image"||l.kind.startsWith("story"))){const i=document.createElement("img");i.src=l.mediaUrl;s.appendChild(i);}
const t=document.createElement("div");t.textContent=(l.kind==="reaction"?"↩ ":"")+(l.text||(l.kind!=="text"?"["+l.kind+"]":""));s.appendChild(t);
if(l.tag){const m=document.createElement("small");m.textContent=T.tagged;s.appendChild(m);}d.appendChild(s);log.appendChild(d);}
log.scrollTop=log.scrollHeight;}
loadPages();setInterval(refresh,1000);setInterval(loadPages,5000);
</script></body></html>`;
