// The reader's language: remembered when they pick one, and used by the root page to send
// them straight to it (or, the first time, to the best match for the browser's languages).
// Without JavaScript the root page is a plain list of languages.

const KEY = "ai-calculators:locale";

// Offline support: the service worker at the site's root caches visited pages and the runtime.
// On a calculator page it installs once the engine has started (app.js says so): its downloads then
// come from the HTTP cache instead of competing with the runtime's on a first visit's slow link.
if ("serviceWorker" in navigator) {
  const root = new URL("../", import.meta.url);
  const register = () =>
    navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.pathname }).catch(() => {
      // Not allowed here (an embed in a third-party page, a private window): the site works without it.
    });
  if (document.querySelector("form[data-calculator]")) {
    document.addEventListener("calculator:engine-settled", register, { once: true });
  } else {
    register();
  }
}

for (const link of document.querySelectorAll("a[data-locale-choice]")) {
  link.addEventListener("click", () => remember(link.hreflang));
}

// On a calculator page the switcher carries the values the reader entered (app.js tells them on every
// result, in every locale's notation), so the page opens in the other language with them. Long ones (pasted
// vectors) are written into the links only when one is about to be followed, in the link's fragment; values
// past a link's length go, whole, through the tab's session storage.
const switcher = [...document.querySelectorAll(".languages a[data-locale-choice]")];
let pending = null;
let whole = null;
const writeLinks = () => {
  if (!pending) return;
  const written = pending(switcher.map((link) => link.href));
  pending = null;
  switcher.forEach((link, index) => (link.href = written.hrefs[index]));
  whole = written.whole;
};
document.addEventListener("calculator:values", (event) => {
  pending = event.detail.read;
  whole = null;
  if (event.detail.eager) writeLinks();
});
for (const link of switcher) {
  for (const type of ["pointerdown", "focus", "contextmenu", "mouseenter"]) link.addEventListener(type, writeLinks);
  link.addEventListener("click", () => {
    writeLinks();
    if (whole === null) return;
    try {
      const path = new URL(link.href).pathname;
      sessionStorage.setItem("ai-calculators:carried-values", JSON.stringify({ path, query: whole }));
    } catch {
      // No room in session storage: the other page opens with what fits in the link.
    }
  });
}

const chooser = document.querySelector("[data-locale-chooser]");
if (chooser) {
  const choices = [...chooser.querySelectorAll("a[data-locale-choice]")];
  const target = bestChoice(choices, [recall(), ...(navigator.languages ?? [navigator.language])]);
  if (target) location.replace(target.href);
}

function remember(tag) {
  try {
    localStorage.setItem(KEY, tag);
  } catch {
    // Storage can be disabled; the choice is then simply not remembered.
  }
}

function recall() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

// Exact tag first, then the script or region that decides between zh-TW and zh-CN, then the language alone.
function bestChoice(choices, preferences) {
  const byTag = new Map(choices.map((link) => [link.hreflang.toLowerCase(), link]));
  const aliases = { "zh-hant": "zh-tw", "zh-hk": "zh-tw", "zh-mo": "zh-tw", "zh-hans": "zh-cn", "zh-sg": "zh-cn", zh: "zh-cn", pt: "pt-br" };
  for (const preference of preferences) {
    if (!preference) continue;
    const tag = preference.toLowerCase();
    const parts = tag.split("-");
    const candidates = [tag, aliases[parts.slice(0, 2).join("-")], aliases[parts[0]], parts[0]];
    for (const candidate of candidates) {
      if (candidate && byTag.has(candidate)) return byTag.get(candidate);
    }
  }
  return null;
}
