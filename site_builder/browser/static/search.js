// The search box: Pagefind's index of every calculator in this page's language, loaded on first use.
// It works offline once visited (the service worker keeps what it fetched).

const form = document.querySelector("[data-search]");
if (form) connectSearch(form);

const HAN_OR_KANA = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

// The index cuts Chinese and Japanese into words with a simplified-Chinese dictionary, which splits some of
// Taiwan's words (快取, "cache") into single characters, so a query that holds them whole matches nothing.
// Cut the query into words as the browser does, then split the rarest word of several characters into its
// characters, one word at a time, until the query matches: the words the index knows stay whole and rank best.
async function searchSplitting(engine, query) {
  const segmenter = new Intl.Segmenter(document.documentElement.lang, { granularity: "word" });
  const terms = [...segmenter.segment(query)].filter((part) => part.isWordLike).map((part) => [part.segment]);
  let search = { results: [] };
  for (;;) {
    const whole = terms.filter((term) => term.length === 1 && [...term[0]].length > 1 && HAN_OR_KANA.test(term[0]));
    if (whole.length === 0) return search;
    const counts = await Promise.all(whole.map(async ([word]) => (await engine.search(word)).results.length));
    const rarest = whole[counts.indexOf(Math.min(...counts))];
    rarest.splice(0, 1, ...rarest[0]);
    search = await engine.search(terms.flat().join(" "));
    if (search.results.length > 0) return search;
  }
}

function connectSearch(form) {
  const input = form.querySelector("input");
  const list = form.querySelector("[data-search-results]");
  const status = form.querySelector("[role=status]");
  const root = new URL("../", import.meta.url);
  let pagefind = null;
  let latest = 0;
  form.hidden = false;

  const load = async () => {
    if (!pagefind) {
      pagefind = await import(new URL("pagefind/pagefind.js", root).href);
      await pagefind.options({ baseUrl: root.pathname });
      keepForOffline().catch(() => {});
    }
    return pagefind;
  };
  // Once searched online, any word can be searched offline: the service worker stores this language's whole
  // index (a few hundred kilobytes), not only the parts the words searched so far needed.
  const keepForOffline = async () => {
    const worker = navigator.serviceWorker?.controller;
    if (!worker) return;
    const lists = await (await fetch(new URL("pagefind/offline.json", root))).json();
    const files = lists[document.documentElement.lang.toLowerCase()] ?? [];
    worker.postMessage({ type: "keep-search", urls: files.map((file) => new URL(`pagefind/${file}`, root).href) });
  };

  const show = (entries) => {
    list.replaceChildren(
      ...entries.map(({ url, title, excerpt }) => {
        const item = document.createElement("li");
        const link = document.createElement("a");
        link.href = url;
        link.textContent = title;
        const text = document.createElement("p");
        text.textContent = excerpt;
        item.append(link, text);
        return item;
      }),
    );
    list.hidden = entries.length === 0;
  };

  input.addEventListener("focus", () => load().catch(() => {}), { once: true });
  input.addEventListener("input", async () => {
    const query = input.value.trim();
    const ticket = ++latest;
    if (!query) {
      show([]);
      status.textContent = "";
      return;
    }
    let data;
    try {
      const engine = await load();
      let search = await engine.debouncedSearch(query, {}, 150);
      if (search === null || ticket !== latest) return;
      if (search.results.length === 0 && HAN_OR_KANA.test(query)) {
        search = await searchSplitting(engine, query);
        if (ticket !== latest) return;
      }
      data = await Promise.all(search.results.slice(0, 8).map((result) => result.data()));
    } catch {
      // The index could not be read (offline before any search online): that is not "nothing matches".
      pagefind = null;
      if (ticket !== latest) return;
      show([]);
      status.textContent = status.dataset.unavailable;
      return;
    }
    if (ticket !== latest) return;
    show(data.map((entry) => ({ url: entry.url, title: entry.meta.title, excerpt: plainText(entry.excerpt) })));
    status.textContent = data.length ? "" : status.dataset.empty;
  });
  // The list closes on Escape (a second Escape clears the box), on a click elsewhere and when focus
  // leaves the form; the arrow keys move between the box and the results.
  const close = () => {
    list.hidden = true;
    status.textContent = "";
  };
  const links = () => [...list.querySelectorAll("a")];
  form.addEventListener("keydown", (event) => {
    const position = links().indexOf(document.activeElement);
    if (event.key === "Escape") {
      if (list.hidden) {
        input.value = "";
        show([]);
      }
      close();
      input.focus();
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (links().length === 0 || !input.value.trim()) return;
      event.preventDefault();
      list.hidden = false;
      const next = position + (event.key === "ArrowDown" ? 1 : -1);
      if (next < 0) input.focus();
      else links()[Math.min(next, links().length - 1)].focus();
    }
  });
  input.addEventListener("focus", (event) => {
    // Coming back from elsewhere on the page shows the results again (Escape from a result does not).
    if (!form.contains(event.relatedTarget) && input.value.trim() && list.children.length) list.hidden = false;
  });
  document.addEventListener("pointerdown", (event) => {
    if (!form.contains(event.target)) close();
  });
  form.addEventListener("focusout", (event) => {
    // Only a focus that moves somewhere else on the page: a click on a result may not focus it (Safari).
    if (event.relatedTarget && !form.contains(event.relatedTarget)) close();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    list.querySelector("a")?.click();
  });
}

// Excerpts mark matches with <mark>; show them as text, never as markup.
function plainText(html) {
  return new DOMParser().parseFromString(html, "text/html").body.textContent ?? "";
}
