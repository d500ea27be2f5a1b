// embed.js: puts a calculator where this script tag stands.
//   <script src="https://…/_app/embed.js" data-calculator="llm-training-vram" data-lang="zh-TW"
//           data-values="params_billion=70&bytes_per_param=12" async></script>
// It inserts one sandboxed iframe after its own tag and touches nothing else on the host page.
// The iframe reports its height by postMessage; only messages from the site's origin, from
// that very iframe, with the expected shape, are believed.
(() => {
  "use strict";
  const CATALOGUE = /*CATALOGUE*/ null;
  const script = document.currentScript;
  if (!script || !script.src) return;
  const siteRoot = new URL("../", script.src);
  const has = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
  const slug = script.getAttribute("data-calculator") || "";
  const lang = (script.getAttribute("data-lang") || "en").toLowerCase();
  if (!CATALOGUE.slugs.includes(slug)) return;
  const folder = has(CATALOGUE.locales, lang) ? CATALOGUE.locales[lang] : "en";

  // Only keys shaped like input names pass, each value as plain text; the page itself ignores
  // any key that is not one of its inputs and validates every value. Values pass whole (a pasted vector is
  // thousands of numbers) up to the longest address a browser opens, as the site's Embed dialog writes them.
  const values = new URLSearchParams();
  let count = 0;
  let length = 0;
  for (const [key, value] of new URLSearchParams(script.getAttribute("data-values") || "")) {
    length += key.length + value.length;
    if (/^[a-z][a-z0-9_]{0,63}$/.test(key) && length <= 2_000_000 && count++ < 64) values.append(key, value);
  }
  const frameId = `c${Math.random().toString(36).slice(2, 10)}`;
  const src = new URL(`${folder}/embed/${slug}/`, siteRoot);
  const frame = new URLSearchParams({ frame: frameId, host: location.origin }).toString();
  // Short values in the query; long ones (vectors) in the fragment, which no server sees (hosts refuse long
  // request lines), as the site's own links carry them.
  const query = values.toString();
  if (src.href.length + query.length < 2_000) {
    src.search = query;
    src.hash = frame;
  } else {
    src.hash = [frame, query].join("&");
  }

  const iframe = document.createElement("iframe");
  iframe.src = src.href;
  iframe.title = slug.replaceAll("-", " "); // until the page sends its own title, in its language
  iframe.loading = "lazy";
  iframe.referrerPolicy = "strict-origin-when-cross-origin";
  iframe.setAttribute("sandbox", "allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox");
  iframe.style.cssText = "display:block;width:100%;max-width:100%;height:560px;border:0;";
  script.parentNode.insertBefore(iframe, script.nextSibling);

  window.addEventListener("message", (event) => {
    if (event.origin !== siteRoot.origin || event.source !== iframe.contentWindow) return;
    const data = event.data;
    if (!data || typeof data !== "object" || data.type !== "ai-calc:size" || data.frame !== frameId) return;
    if (typeof data.height !== "number" || !Number.isFinite(data.height)) return;
    iframe.style.height = `${Math.min(Math.max(Math.ceil(data.height), 120), 20000)}px`;
    if (typeof data.title === "string" && data.title && data.title.length <= 200) iframe.title = data.title;
  });
})();
