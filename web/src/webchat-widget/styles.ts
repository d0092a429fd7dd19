/** The widget's CSS, inside its shadow root (the page's styles never apply); --c is the connection's colour. */
export const STYLES = `:host{--c:#2563eb;all:initial}
*{box-sizing:border-box;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:14px}
.fab{position:fixed;right:20px;bottom:20px;width:56px;height:56px;border-radius:50%;border:0;background:var(--c);color:#fff;font-size:24px;cursor:pointer;box-shadow:0 4px 12px rgba(0,0,0,.25);z-index:2147483646}
.panel{position:fixed;right:20px;bottom:88px;width:340px;max-width:calc(100vw - 40px);height:460px;max-height:calc(100vh - 120px);display:flex;flex-direction:column;background:#fff;color:#111;border-radius:12px;box-shadow:0 8px 28px rgba(0,0,0,.25);overflow:hidden;z-index:2147483647}
.panel[hidden]{display:none}
.head{display:flex;justify-content:space-between;align-items:center;padding:12px 14px;background:var(--c);color:#fff;font-weight:600}
.x{background:none;border:0;color:#fff;font-size:22px;cursor:pointer;line-height:1}
.list{flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:6px;background:#f6f7f9}
.msg{max-width:80%;padding:8px 10px;border-radius:10px;white-space:pre-wrap;overflow-wrap:anywhere}
.me{align-self:flex-end;background:var(--c);color:#fff}
.them{align-self:flex-start;background:#fff;border:1px solid #e3e5e8}
.compose,.pre{display:flex;gap:6px;padding:8px;border-top:1px solid #e3e5e8}
.pre{flex-direction:column}
textarea,input{flex:1;resize:none;border:1px solid #cfd3d8;border-radius:8px;padding:8px}
.send{border:0;border-radius:8px;background:var(--c);color:#fff;padding:8px 12px;cursor:pointer}
.att{border:0;background:none;cursor:pointer;font-size:18px}
.err{color:#b91c1c;padding:4px 12px}
.err[hidden]{display:none}`;
