// The search box: Pagefind's index of every calculator in this page's language, loaded on first use.
// It works offline once visited (the service worker keeps what it fetched).

const form = document.querySelector("[data-search]");
if (form) connectSearch(form);

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
    }
    return pagefind;
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
    const engine = await load();
    const search = await engine.debouncedSearch(query, {}, 150);
    if (search === null || ticket !== latest) return;
    const data = await Promise.all(search.results.slice(0, 8).map((result) => result.data()));
    if (ticket !== latest) return;
    show(data.map((entry) => ({ url: entry.url, title: entry.meta.title, excerpt: plainText(entry.excerpt) })));
    status.textContent = data.length ? "" : status.dataset.empty;
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      input.value = "";
      show([]);
      status.textContent = "";
    }
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
