// Development only: reload the page when the dev server has rebuilt the site.
// One tab at a time listens to the server's event stream and tells the others: each stream holds a
// connection open, and Chromium opens six at the most to one host, so a stream per tab would leave
// the seventh tab waiting for its page forever. The listening tab hands the lock on as it goes.
// When the stream comes back after losing the server (restarted after a calculator edit), the site
// has been rebuilt: reload too.
const stream = new URL("../__reload", import.meta.url);
const others = new BroadcastChannel(stream.href);
others.addEventListener("message", () => location.reload());

function listen() {
  const source = new EventSource(stream);
  let lost = false;
  const reload = () => {
    others.postMessage("reload");
    location.reload();
  };
  source.addEventListener("message", reload);
  source.addEventListener("error", () => {
    lost = true;
  });
  source.addEventListener("open", () => {
    if (lost) reload();
  });
  return new Promise(() => {}); // keep the lock while this page lives
}

if (navigator.locks) navigator.locks.request(stream.href, listen);
else listen();
