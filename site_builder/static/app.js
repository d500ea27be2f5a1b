// The live page: reads the form, asks the worker for a report, and writes it into the page.
// The page is complete without this script; it only keeps the results in step with the inputs.

const form = document.querySelector("form[data-calculator]");
if (form) connect(form);

function connect(form) {
  const results = document.querySelector(".results");
  const engineNote = document.querySelector("[data-engine]");
  const absolute = (url) => new URL(url, document.baseURI).href;
  const worker = new Worker(absolute(form.dataset.worker), { type: "module" });

  let ready = false;
  let inFlight = false;
  let pending = null;
  let lastId = 0;

  const showEngine = (state) => {
    engineNote.textContent = engineNote.dataset[state];
    engineNote.dataset.state = state;
    engineNote.hidden = false;
  };

  const request = () => {
    pending = readValues(form);
    results.setAttribute("aria-busy", "true");
    send();
  };

  const send = () => {
    if (!ready || inFlight || pending === null) return;
    inFlight = true;
    lastId += 1;
    worker.postMessage({ type: "compute", id: lastId, values: pending });
    pending = null;
  };

  worker.addEventListener("message", (event) => {
    const message = event.data;
    if (message.type === "ready") {
      ready = true;
      showEngine("ready");
      send();
    } else if (message.type === "failed") {
      showEngine("failed");
      results.removeAttribute("aria-busy");
    } else if (message.type === "report") {
      inFlight = false;
      if (pending === null) {
        showReport(JSON.parse(message.json));
        results.removeAttribute("aria-busy");
      }
      send();
    }
  });
  worker.addEventListener("error", () => showEngine("failed"));

  form.addEventListener("input", request);
  form.addEventListener("change", request);
  form.addEventListener("submit", (event) => event.preventDefault());

  showEngine("loading");
  worker.postMessage({
    type: "init",
    slug: form.dataset.calculator,
    runtime: absolute(form.dataset.runtime),
    bundle: absolute(form.dataset.bundle),
    catalog: absolute(form.dataset.catalog),
    facts: absolute(form.dataset.facts),
  });
  if (applyQuery(form, new URLSearchParams(location.search))) request();

  function showReport(report) {
    results.dataset.state = report.ok ? "ok" : "invalid";
    results.querySelector("[data-status]").textContent = report.status;
    for (const result of report.results) {
      setText(`[data-output="${result.name}"]`, result.value);
      setText(`[data-unit="${result.name}"]`, result.unit);
      setText(`[data-sentence="${result.name}"]`, result.sentence);
    }
    const errors = new Map(report.errors.map((e) => [e.name, e.message]));
    for (const field of form.elements) {
      if (!field.name) continue;
      const message = errors.get(field.name) ?? "";
      const slot = form.querySelector(`[data-error-for="${field.name}"]`);
      if (slot) slot.textContent = message;
      if (message) field.setAttribute("aria-invalid", "true");
      else field.removeAttribute("aria-invalid");
    }
  }

  function setText(selector, text) {
    const element = results.querySelector(selector);
    if (element) element.textContent = text;
  }
}

function readValues(form) {
  const values = {};
  for (const field of form.elements) {
    if (field.name) values[field.name] = field.value;
  }
  return values;
}

// Fill the form from a shared link; keys that name no input are ignored.
function applyQuery(form, params) {
  let applied = false;
  for (const [key, value] of params) {
    const field = form.elements.namedItem(key);
    if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement)) continue;
    if (field instanceof HTMLSelectElement && ![...field.options].some((o) => o.value === value)) {
      continue;
    }
    field.value = value;
    applied = true;
  }
  return applied;
}
