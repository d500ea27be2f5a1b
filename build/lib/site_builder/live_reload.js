// Development only: reload the page when the dev server has rebuilt the site.
const source = new EventSource(new URL("../__reload", import.meta.url));
source.addEventListener("message", () => location.reload());
