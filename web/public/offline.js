/* the "sem conexão" page's texts (the app's CSP allows no inline script) */
// the app's language choice (localStorage "language"), else the browser's: pt (default), en, es
var texts = {
  pt: ["Sem conexão", "Verifique sua internet. O Atende volta sozinho assim que a conexão voltar.", "Tentar de novo"],
  en: ["No connection", "Check your internet. Atende comes back by itself as soon as you are online.", "Try again"],
  es: ["Sin conexión", "Verifique su internet. Atende vuelve solo en cuanto regrese la conexión.", "Intentar de nuevo"],
};
var lang = (localStorage.getItem("language") || navigator.language || "pt").slice(0, 2);
var t = texts[lang] || texts.pt;
document.documentElement.lang = lang === "pt" ? "pt-BR" : lang;
document.getElementById("title").textContent = t[0];
document.getElementById("text").textContent = t[1];
document.getElementById("retry").textContent = t[2];
document.getElementById("retry").onclick = function () { location.reload(); };
window.addEventListener("online", function () { location.reload(); });
