// The live page. The HTML is complete without this script (results are prerendered);
// this keeps results in step with the inputs through the Python worker, and runs the
// page's controls: share, print, reset, embed, copy, "more" lists and feedback.

const form = document.querySelector("form[data-calculator]");
const results = document.querySelector(".results");
const isEmbedded = document.body.hasAttribute("data-embed");
// Links carry values in their query while the address stays short enough for any server (static hosts refuse
// a few kilobytes of request line); longer, in their fragment, which never leaves the browser, up to the
// longest address Chromium opens (2 MiB: past it, a page opens blank).
const QUERY_LINK = 2_000;
const LONGEST_LINK = 2_000_000;
// Past this, the language links are written only when one is about to be followed.
const EAGER_LINK = 8_192;
// Where the language switcher leaves values too long for any link, for the next page (language.js).
const CARRIED = "ai-calculators:carried-values";

const engine = form ? connectEngine(form) : null;
if (isEmbedded) reportSizeToHost();
setUpControls();
keepWideFormulasReachable();

// ---- the engine: one worker, the latest request wins ----

function connectEngine(form) {
  const note = document.querySelector("[data-engine]");
  const absolute = (url) => new URL(url, document.baseURI).href;
  // Started at once on the site's own pages; in an embed, only once it has something to compute: a host page
  // with a dozen calculators would otherwise start a dozen runtimes (150 MB each) that no one may touch.
  let worker = null;
  const state = { ready: false, inFlight: false, pending: null, requested: null, errors: new Set(), lastValid: null };
  // The texts that describe the values, and what the page was published with (for when the engine
  // cannot start and the form goes back to those values).
  const described = [...results.querySelectorAll("[data-sentence], [data-status]")];
  const published = described.map((element) => element.textContent);
  // The results an invalid field leaves in place: at first the published ones, which the form's values give.
  if (results.dataset.state === "ok") state.lastValid = readShownReport();
  const keptNote = results.querySelector("[data-kept-note]");
  // The locale's decimal and group symbols (the file the worker reads), to write values for another locale.
  fetch(absolute(form.dataset.facts))
    .then((response) => response.json())
    .then((facts) => (numberFacts = facts))
    .catch(() => {});
  let staleTimer = null;
  // A runtime that never answers counts as failed rather than loading forever.
  let deadline = null;

  const showEngine = (name) => {
    note.textContent = note.dataset[name];
    note.dataset.state = name;
    note.hidden = false;
  };
  // Without the engine, inputs must not pretend to work: put back the values the
  // prerendered results belong to, and make the form read-only.
  const fail = () => {
    if (note.dataset.state === "failed") return;
    clearTimeout(deadline);
    worker?.terminate();
    for (const field of fields(form)) {
      field.value = field.dataset.default;
      if (field instanceof HTMLSelectElement) field.disabled = true;
      else field.readOnly = true;
    }
    for (const slot of form.querySelectorAll("[data-error-for]")) slot.textContent = "";
    const presets = form.querySelector("[data-presets]");
    if (presets) presets.hidden = true;
    described.forEach((element, index) => (element.textContent = published[index]));
    clearStale();
    showKept(false);
    for (const box of results.querySelectorAll("[data-result], [data-chart]")) {
      box.removeAttribute("data-kept");
      box.hidden = false;
    }
    results.removeAttribute("aria-busy");
    showEngine("failed");
    document.dispatchEvent(new Event("calculator:engine-settled"));
  };
  const send = () => {
    if (!worker) start();
    if (!state.ready || state.inFlight || state.pending === null) return;
    state.inFlight = true;
    worker.postMessage({ type: "compute", values: state.pending });
    state.pending = null;
  };
  const request = () => {
    const values = readValues(form);
    const key = JSON.stringify(values);
    // A field's blur fires "change" with the values its input events already sent: there is nothing to recompute,
    // and redrawing the results then would swallow the click that moved the focus (a copy or a sort button).
    if (key === state.requested) return;
    state.requested = key;
    state.pending = values;
    results.setAttribute("aria-busy", "true");
    // Old results stay, greyed, but never a sentence about other values than the form's: while the
    // engine starts at once, and after a moment if a result is slow to come.
    if (!state.ready) markStale();
    else if (staleTimer === null) staleTimer = setTimeout(markStale, 150);
    send();
  };
  function markStale() {
    staleTimer = null;
    if (results.dataset.stale !== undefined || !results.hasAttribute("aria-busy")) return;
    results.dataset.stale = "";
    for (const element of described) element.textContent = results.dataset.recomputing;
  }
  function clearStale() {
    clearTimeout(staleTimer);
    staleTimer = null;
    delete results.dataset.stale;
  }

  const onMessage = (event) => {
    const message = event.data;
    if (message.type === "ready") {
      clearTimeout(deadline);
      performance.mark("calculator:engine-ready", { detail: { start: message.start, steps: message.steps } });
      state.ready = true;
      showEngine("ready");
      document.dispatchEvent(new Event("calculator:engine-settled"));
      for (const button of form.querySelectorAll("[data-config-apply], [data-hub-fetch], [data-price-search-input]")) {
        button.disabled = false;
      }
      send();
    } else if (message.type === "failed") {
      fail();
    } else if (message.type === "config") {
      const outcome = JSON.parse(message.json);
      if (outcome.ok) {
        fillInputs(form, outcome.values);
        for (const menu of form.querySelectorAll("[data-preset-select]")) clearPresetMenu(menu);
      }
      form.querySelector(message.hub ? "[data-hub-status]" : "[data-config-status]").textContent = outcome.message;
      if (message.hub) form.querySelector("[data-hub]")?.removeAttribute("aria-busy");
      if (outcome.ok) request();
    } else if (message.type === "price") {
      // A model the price search found: the values its entry fills, kept on its option as the build's own carry
      // theirs (so that editing one of them clears the menu, as for any preset).
      const outcome = JSON.parse(message.json);
      const option = form.querySelector(`[data-preset-select] option[value="${CSS.escape(message.id)}"]`);
      if (option) option.dataset.values = JSON.stringify(outcome.values);
      fillInputs(form, outcome.values);
      request();
    } else if (message.type === "report") {
      state.inFlight = false;
      if (state.pending === null) {
        showReport(JSON.parse(message.json));
        clearStale();
        results.removeAttribute("aria-busy");
      }
      send();
    }
  };
  const edited = (event) => {
    if (!event.target.name) return; // the preset menus and the config box are not inputs
    if (event.target instanceof HTMLSelectElement) dropRejected(event.target);
    // A menu that names a model no longer describes the form once one of that model's fields is edited.
    for (const menu of form.querySelectorAll("[data-preset-select]")) {
      const values = menu.selectedOptions[0]?.dataset.values;
      if (values && event.target.name in JSON.parse(values)) clearPresetMenu(menu);
    }
    request();
  };
  form.addEventListener("input", edited);
  form.addEventListener("change", edited);
  form.addEventListener("submit", (event) => event.preventDefault());
  setUpPresets(form, request, (message) => worker?.postMessage(message));

  if (typeof WebAssembly !== "object") {
    fail();
    return { request, state };
  }
  const files = {
    stdlib: form.dataset.stdlib ? absolute(form.dataset.stdlib) : null,
    runtime: absolute(form.dataset.runtime),
    bundle: absolute(form.dataset.bundle),
    calculatorBundle: absolute(form.dataset.calculatorBundle),
    catalog: absolute(form.dataset.catalog),
    facts: absolute(form.dataset.facts),
    // The site's price feed, where the page compares every model in it (report.menu_prices).
    prices: form.dataset.priceFeed ? absolute(form.dataset.priceFeed) : "",
  };
  function start() {
    if (worker || note.dataset.state === "failed") return;
    showEngine("loading");
    worker = new Worker(absolute(form.dataset.worker), { type: "module" });
    worker.addEventListener("message", onMessage);
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      fail();
    });
    deadline = setTimeout(() => fail(), 60_000);
    worker.postMessage({ type: "init", module: form.dataset.module, gpus: gpuMenu(form), ...files });
    // The start-up snapshot waits for the offline cache: under a small quota, offline use comes first.
    navigator.serviceWorker?.ready.then(() => worker?.postMessage({ type: "offline-settled" })).catch(() => {});
  }
  // The offline cache holds what every page shares; this page's own calculator and catalog are added to it.
  navigator.serviceWorker?.ready
    .then((registration) =>
      registration.active?.postMessage({ type: "keep", urls: [files.calculatorBundle, files.catalog, files.facts] }),
    )
    .catch(() => {});
  if (applyQuery(form, carriedQuery() ?? linkedValues())) {
    state.lastValid = null; // the published results are not the link's values
    request();
  } else if (isEmbedded) {
    // The published results are this page's: the reader's first touch starts the engine.
    for (const type of ["focusin", "pointerdown"]) form.addEventListener(type, start, { once: true });
  } else {
    start();
  }

  function showReport(report) {
    results.dataset.state = report.ok ? "ok" : "invalid";
    results.querySelector("[data-status]").textContent = report.status;
    // An invalid field leaves the results that do not depend on it computed as usual (the core wrote them);
    // each of the others keeps its last value computed, greyed, with a note saying it is for earlier values.
    // Results of values the form never held (a link's, before any) are not shown.
    if (report.ok) state.lastValid = report;
    const last = report.ok ? null : state.lastValid;
    const shown = report.results.map((result) => {
      const kept = result.value === "" ? (last?.results.find((old) => old.name === result.name) ?? null) : null;
      const box = results.querySelector(`[data-result="${result.name}"]`);
      box?.toggleAttribute("data-kept", kept !== null);
      if (box) box.hidden = result.value === "" && kept === null;
      return kept ?? result;
    });
    for (const result of shown) {
      setText(`[data-output="${result.name}"]`, result.value);
      setText(`[data-unit="${result.name}"]`, result.unit);
      showSentence(result.name, result.sentence);
    }
    // The chart is SVG markup from the same Python that prerendered it; every text in it is escaped there.
    const chart = results.querySelector("[data-chart]");
    const chartKept = chart !== null && report.chart === "" && Boolean(last?.chart);
    if (chart) {
      chart.innerHTML = chartKept ? last.chart : report.chart;
      chart.toggleAttribute("data-kept", chartKept);
      makeSortable(chart);
    }
    const fresh = report.results.filter((result) => result.value !== "").length;
    showKept(shown.some((result, index) => result !== report.results[index]) || chartKept, fresh > 0);
    updateSummary(shown[0], report.results[0]?.value !== "");
    const messages = new Map(report.errors.map((error) => [error.name, error.message]));
    state.errors = new Set(messages.keys());
    // The language links carry the values: written out at once while short, on demand (language.js) when a
    // pasted vector makes them megabytes, so that an edit never rewrites ten such links.
    document.dispatchEvent(new CustomEvent("calculator:values", { detail: linkValues() }));
    for (const field of fields(form)) {
      const message = messages.get(field.name) ?? "";
      form.querySelector(`[data-error-for="${field.name}"]`).textContent = message;
      if (message) field.setAttribute("aria-invalid", "true");
      else field.removeAttribute("aria-invalid");
    }
  }

  function showKept(kept, someFresh = false) {
    results.toggleAttribute("data-kept", kept);
    if (keptNote) keptNote.textContent = kept ? (someFresh ? keptNote.dataset.textSome : keptNote.dataset.text) : "";
  }

  function readShownReport() {
    const text = (selector) => results.querySelector(selector)?.textContent ?? "";
    const names = [...results.querySelectorAll("[data-output]")].map((output) => output.dataset.output);
    return {
      results: names.map((name) => ({
        name,
        value: text(`[data-output="${name}"]`),
        unit: text(`[data-unit="${name}"]`),
        sentence: text(`[data-sentence="${name}"]`),
      })),
      chart: results.querySelector("[data-chart]")?.innerHTML ?? "",
    };
  }

  function setText(selector, text) {
    const element = results.querySelector(selector);
    if (element) element.textContent = text;
  }

  // A sentence as the page prerendered it: its text, with each number and its unit in a span no line breaks
  // (the core's NUMBER_WITH_UNIT pattern, which the page carries).
  function showSentence(name, text) {
    const element = results.querySelector(`[data-sentence="${name}"]`);
    if (!element) return;
    const parts = [];
    let last = 0;
    for (const match of text.matchAll(new RegExp(results.dataset.keepTogether, "gu"))) {
      const pair = document.createElement("span");
      pair.className = "nobr";
      pair.textContent = match[0];
      parts.push(text.slice(last, match.index), pair);
      last = match.index + match[0].length;
    }
    element.replaceChildren(...parts, text.slice(last));
  }

  // The headline in sight while editing: the first result as the results show it (greyed while an input is
  // invalid, as the results are; a dash when there is none to keep).
  function updateSummary(first, ok) {
    const summary = document.querySelector("[data-summary]");
    if (!summary || !first) return;
    summary.dataset.state = ok ? "ok" : "invalid";
    summary.querySelector("[data-summary-value]").textContent = first.value || "–";
    summary.querySelector("[data-summary-unit]").textContent = first.value ? first.unit : "";
  }

  return { request, state };
}

// ---- presets: a model or GPU menu, and a pasted config.json, fill the fields they know ----

// The GPU menu's entries, for the engine's table of every GPU (report.menu_gpus): the same names and texts the
// build computed the table with.
function gpuMenu(form) {
  const options = form.querySelectorAll("[data-gpu-menu] option[data-values]");
  return JSON.stringify([...options].map((option) => ({ name: option.textContent.trim(), values: JSON.parse(option.dataset.values) })));
}

function setUpPresets(form, request, ask) {
  const box = form.querySelector("[data-presets]");
  if (!box) return;
  box.hidden = false;
  // The days the price lists hold for, in the page's language (ISO date → its long form).
  const days = new Map((box.dataset.priceDates ?? "").split("|").map((pair) => pair.split("=")));
  for (const search of box.querySelectorAll("[data-price-search]")) setUpPriceSearch(search, days);
  for (const menu of box.querySelectorAll("[data-preset-select]")) {
    menu.addEventListener("change", () => {
      const option = menu.selectedOptions[0];
      showPriceSource(menu, option, days);
      if (option?.dataset.entry) return ask({ type: "price", id: option.value, entry: option.dataset.entry });
      if (!option || !option.dataset.values) return;
      fillInputs(form, JSON.parse(option.dataset.values));
      request();
    });
  }
  const apply = box.querySelector("[data-config-apply]");
  apply?.addEventListener("click", () => {
    const text = box.querySelector("[data-config-text]").value.slice(0, 200_000);
    ask({ type: "config", text });
  });
  // The Hub is asked only when the reader presses Fetch; the engine reads what came back, as for a paste.
  const hub = box.querySelector("[data-hub]");
  const fetchButton = hub?.querySelector("[data-hub-fetch]");
  const read = async () => {
    if (hub.getAttribute("aria-busy") === "true") return;
    hub.setAttribute("aria-busy", "true");
    hub.querySelector("[data-hub-status]").textContent = hub.dataset.hubReading;
    try {
      const id = hub.querySelector("[data-hub-id]").value.trim();
      const revision = hub.querySelector("[data-hub-revision]").value.trim() || "main";
      const model = await fetchModel(hub.dataset.hub, id, revision);
      ask({ type: "checkpoint", config: model.config, headers: model.headers });
    } catch (problem) {
      ask({ type: "hub-problem", code: problem.code ?? "offline", number: problem.number ?? 0 });
    }
  };
  fetchButton?.addEventListener("click", read);
  hub?.querySelector("[data-hub-id]").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !fetchButton.disabled) {
      event.preventDefault();
      read();
    }
  });
}


// ---- the Hub: a model's config.json and safetensors headers, fetched only when the reader asks ----

const REPO_ID = /^[A-Za-z0-9](?:[\w.-]{0,94}[A-Za-z0-9_])?\/[\w.-]{1,96}$/;
const SHARD = /^[\w.-]+(?:\/[\w.-]+)*\.safetensors$/;
const LARGEST_HEADER = 100_000_000; // bytes: the safetensors library refuses a longer header
const LARGEST_FILE = 50_000_000; // bytes read of config.json, the shard index, or all headers together

class HubProblem extends Error {
  constructor(code, number = 0) {
    super(code);
    this.code = code;
    this.number = number;
  }
}

// Read a model as huggingface_hub does: config.json, the shard index (or the single file), then the first
// 8 + N bytes of each safetensors file with Range requests, a few files at a time; never the weights.
async function fetchModel(hub, id, revision) {
  if (!REPO_ID.test(id) || id.includes("..") || !/^[\w.-]{1,200}$/.test(revision)) throw new HubProblem("bad_id");
  const path = (name) => name.split("/").map(encodeURIComponent).join("/");
  const base = `${hub}/${path(id)}/resolve/${encodeURIComponent(revision)}/`;
  const text = (bytes) => new TextDecoder().decode(bytes);
  const config = text(await hubGet(base + "config.json", 0, "no_config"));
  let files = ["model.safetensors"];
  const index = await hubGet(base + "model.safetensors.index.json", 0, "no_file").catch((problem) => {
    if (problem.code === "no_file") return null;
    throw problem;
  });
  if (index) files = shardFiles(text(index));
  const headers = new Array(files.length);
  let next = 0;
  let total = 0;
  const readHeaders = async () => {
    while (next < files.length) {
      const at = next++;
      const url = base + path(files[at]);
      const length = new DataView((await hubGet(url, 8, "no_file")).buffer).getBigUint64(0, true);
      total += Number(length);
      if (length > BigInt(LARGEST_HEADER) || total > LARGEST_FILE) throw new HubProblem("not_safetensors");
      headers[at] = text((await hubGet(url, 8 + Number(length), "no_file")).subarray(8));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(6, files.length) }, readHeaders));
  } catch (problem) {
    if (problem.code === "no_file") return { config, headers: [] }; // no safetensors: the config alone
    throw problem;
  }
  return { config, headers };
}

// The files model.safetensors.index.json names, each once, sorted; none when it is not such an index.
function shardFiles(indexText) {
  let index;
  try {
    index = JSON.parse(indexText);
  } catch {
    return [];
  }
  const named = Object.values(index?.weight_map ?? {}).filter((name) => typeof name === "string");
  return [...new Set(named)].filter((name) => SHARD.test(name) && !name.includes("..")).sort();
}

// GET `url`, only its first `first` bytes when given: a server that ignores Range is read no further.
async function hubGet(url, first, missingFile) {
  let response;
  try {
    response = await fetch(url, first ? { headers: { Range: `bytes=0-${first - 1}` } } : {});
  } catch {
    throw new HubProblem("offline");
  }
  if (!response.ok) throw hubProblem(response, missingFile);
  const limit = first || LARGEST_FILE;
  const chunks = [];
  let size = 0;
  const reader = response.body.getReader();
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value.subarray(0, limit - size));
      size += chunks.at(-1).length;
    }
  } catch {
    throw new HubProblem("offline");
  } finally {
    reader.cancel().catch(() => {});
  }
  if (first && size < first) throw new HubProblem("not_safetensors");
  const bytes = new Uint8Array(size);
  chunks.reduce((at, chunk) => (bytes.set(chunk, at), at + chunk.length), 0);
  return bytes;
}

// The Hub's answer, told apart as huggingface_hub tells it: X-Error-Code, then the status.
function hubProblem(response, missingFile) {
  const code = response.headers.get("X-Error-Code") ?? "";
  const status = response.status;
  if (code === "GatedRepo" || (status === 403 && !code)) return new HubProblem("gated");
  if (code === "RevisionNotFound") return new HubProblem("no_revision");
  if (code === "EntryNotFound" || (status === 404 && code !== "RepoNotFound")) return new HubProblem(missingFile);
  if (code === "RepoNotFound" || status === 401) return new HubProblem("missing");
  if (status === 429) {
    const retry = response.headers.get("Retry-After") ?? "";
    const limit = /;\s*t=(\d+)/.exec(response.headers.get("RateLimit") ?? "");
    return new HubProblem("rate_limited", /^\d+$/.test(retry) ? Number(retry) : limit ? Number(limit[1]) : 0);
  }
  return new HubProblem("hub_error", status);
}

// Values come from the page's own preset data or from the Python reading of a pasted config:
// they only ever become field values, and only of fields that exist.
function fillInputs(form, values) {
  for (const [name, text] of Object.entries(values)) {
    const field = form.elements.namedItem(name);
    if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement)) continue;
    if (field instanceof HTMLSelectElement && ![...field.options].some((option) => option.value === text)) continue;
    if (field.value === text) continue;
    field.value = text;
    if (field instanceof HTMLSelectElement) dropRejected(field);
    const advanced = field.closest("details[data-advanced]");
    if (advanced) advanced.open = true; // show the reader every value a preset changed
  }
}

function fields(form) {
  return [...form.elements].filter((field) => field.name);
}

function readValues(form) {
  return Object.fromEntries(fields(form).map((field) => [field.name, field.value]));
}

// The values this page's address carries: in its query, or, for long ones, its fragment (an embed's fragment
// also names its frame and host, which no input is called).
function linkedValues() {
  const params = new URLSearchParams(location.search);
  for (const [key, value] of new URLSearchParams(location.hash.slice(1))) params.set(key, value);
  return params;
}

// The whole query the language switcher left for this page when it was too long for a link (language.js).
function carriedQuery() {
  try {
    const carried = JSON.parse(sessionStorage.getItem(CARRIED) ?? "null");
    sessionStorage.removeItem(CARRIED);
    return carried?.path === location.pathname ? new URLSearchParams(carried.query) : null;
  } catch {
    return null;
  }
}

// Fill the form from a shared link. Links are untrusted: keys that name no input are
// ignored, values only ever become field values (never markup), and a value a list
// cannot hold is shown in it as a disabled option of its own, so the engine flags it instead of it
// being dropped silently, and choosing any listed option (the default too) changes the menu and clears it.
function applyQuery(form, params) {
  let applied = false;
  for (const [key, value] of params) {
    const field = form.elements.namedItem(key);
    if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement || field instanceof HTMLTextAreaElement)) {
      continue;
    }
    // A number is short; a pasted vector (a textarea) may hold thousands of them.
    const text = value.slice(0, field instanceof HTMLTextAreaElement ? 4_000_000 : 200);
    const advanced = field.closest("details[data-advanced]");
    if (advanced) advanced.open = true; // a link that sets an advanced option shows it
    if (field instanceof HTMLSelectElement && ![...field.options].some((option) => option.value === text)) {
      dropRejected(field);
      const option = new Option(text, text, false, true);
      option.disabled = true;
      option.dataset.rejected = "";
      field.prepend(option);
      field.value = text;
    } else {
      field.value = text;
    }
    applied = true;
  }
  return applied;
}

let numberFacts = null;

// Put `params` into `url`: in its query while short, else in its fragment (after what the fragment holds),
// dropping the longest values until the address fits in a link. Return whether any was dropped. `query` is
// `params` written out, when the caller already has it (megabytes, for a long vector).
function carryValues(url, params, query = params.toString()) {
  if (url.href.length + query.length < QUERY_LINK) {
    url.search = query;
    return false;
  }
  url.search = "";
  const fragment = url.hash.slice(1);
  let dropped = false;
  for (;;) {
    const hash = [fragment, query].filter(Boolean).join("&");
    if (url.href.length + hash.length < LONGEST_LINK || params.size === 0) {
      url.hash = hash;
      return dropped;
    }
    const [longest] = [...params].sort(([, a], [, b]) => b.length - a.length)[0];
    params.delete(longest);
    query = params.toString();
    dropped = true;
  }
}

// What calculator:values tells the language switcher: how to write its links (`read`, given their addresses:
// each link's address with the values, and, when some did not fit, the whole of them, which the switcher hands to
// the next page through the tab's session storage), and whether to write them at once (`eager`: short values)
// or only when one is about to be followed (a hundred thousand numbers take a moment to write).
function linkValues() {
  const size = [...changedValues()].reduce((total, [name, value]) => total + name.length + value.length, 0);
  return {
    eager: size <= EAGER_LINK,
    read: (addresses) => {
      const whole = portableValues();
      const query = whole.toString(); // written once for every link
      let dropped = false;
      const hrefs = addresses.map((address) => {
        const url = new URL(address);
        url.search = "";
        url.hash = "";
        dropped = carryValues(url, new URLSearchParams(whole), query) || dropped;
        return url.href;
      });
      return { hrefs, whole: dropped ? query : null };
    },
  };
}

function dropRejected(menu) {
  menu.querySelector("option[data-rejected]")?.remove();
}

// The values a link should carry: every input whose value the engine accepted, but an input added after the page
// shipped (optional: a link without it takes its default) only when the reader changed it, so links stay short.
function shareableValues() {
  const params = new URLSearchParams();
  for (const field of fields(form)) {
    const value = field.value.trim();
    if (engine.state.errors.has(field.name) || value === "") continue;
    if (field.dataset.optional !== undefined && value === field.dataset.default) continue;
    params.set(field.name, value);
  }
  return params;
}

// The values the language switcher carries to the same page in another language: those the reader changed and
// the engine accepted, written as every locale reads them (a point for the decimal mark, no group separators;
// numbers.parse_number reads a point as a decimal mark everywhere). Unknown notation facts: menus only.
function portableValues() {
  const params = new URLSearchParams();
  for (const [name, value] of changedValues()) {
    const field = form.elements.namedItem(name);
    // Menus and vectors read the same in every locale (a vector's numbers always take a point).
    if (field instanceof HTMLSelectElement || field instanceof HTMLTextAreaElement) params.set(name, value);
    else if (numberFacts) params.set(name, portableNumber(value, numberFacts));
  }
  return params;
}

function portableNumber(text, { decimal, group }) {
  // The group symbol as numbers.parse_number reads it: never a point or the decimal mark; any space for a space.
  const escaped = group.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const groups = group === "." || group === decimal ? null : /^\s$/.test(group) ? "\\s" : escaped;
  const plain = groups ? text.replace(new RegExp(`(?<=\\p{Nd})${groups}(?=\\p{Nd})`, "gu"), "") : text;
  return decimal === "." ? plain : plain.replaceAll(decimal, ".");
}

function changedValues() {
  const params = new URLSearchParams();
  for (const [name, value] of shareableValues()) {
    if (value !== form.elements.namedItem(name).dataset.default) params.set(name, value);
  }
  return params;
}

// ---- the embedded page tells its host how tall it is ----

function reportSizeToHost() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const frame = hash.get("frame") ?? "";
  let host;
  try {
    host = new URL(hash.get("host") ?? "").origin;
  } catch {
    return;
  }
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(frame) || host === "null" || window.parent === window) return;
  const post = () => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    window.parent.postMessage({ type: "ai-calc:size", frame, height, title: document.title }, host);
  };
  new ResizeObserver(post).observe(document.body);
  post();
}

// ---- controls ----

// A formula wider than a phone scrolls in its own box; a box that scrolls must take the keyboard's focus too, or
// its end is out of a keyboard's reach. Only those that scroll become tab stops, and again as the width changes.
function keepWideFormulasReachable() {
  const formulas = [...document.querySelectorAll('math[display="block"]')];
  if (formulas.length === 0) return;
  const mark = () => {
    for (const formula of formulas) {
      if (formula.scrollWidth > formula.clientWidth + 1) formula.setAttribute("tabindex", "0");
      else formula.removeAttribute("tabindex");
    }
  };
  mark();
  new ResizeObserver(mark).observe(document.documentElement);
}

function setUpControls() {
  for (const element of document.querySelectorAll("[data-toolbar], [data-copy], [data-feedback-choice]")) {
    element.hidden = false;
  }
  for (const button of document.querySelectorAll("[data-open]")) {
    button.addEventListener("click", () => openDialog(document.getElementById(button.dataset.open)));
  }
  for (const dialog of document.querySelectorAll("dialog")) trapFocus(dialog);
  document.querySelector("[data-print]")?.addEventListener("click", () => window.print());
  window.addEventListener("beforeprint", stampGeneratedDate);
  window.addEventListener("beforeprint", prepareReport);
  window.addEventListener("afterprint", restoreAfterPrint);
  document.querySelector("[data-reset]")?.addEventListener("click", reset);
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", () => copy(button.dataset.copy, button));
  }
  for (const button of document.querySelectorAll("[data-copy-from]")) {
    button.addEventListener("click", () => copy(document.getElementById(button.dataset.copyFrom).value, button));
  }
  // The planner's launch settings are redrawn with every result, so their copy buttons are found on click.
  document.addEventListener("click", (event) => {
    const button = event.target.closest?.("[data-copy-code]");
    if (button) copy(button.previousElementSibling.textContent, button);
    const sorter = event.target.closest?.("[data-sort-column]");
    if (sorter) sortBy(sorter);
  });
  makeSortable(document);
  setUpMoreLists();
  setUpFeedback();
}

// ---- the price list's search: every entry of a menu's kind in the site's price feed, read at the first search ----

// The menu keeps the page's own entries (the most used) until the reader types; then it holds the models whose
// vendor and name contain every word typed, the first 200 of them, each named as the build names its own.
function setUpPriceSearch(search, days) {
  const input = search.querySelector("[data-price-search-input]");
  const status = search.querySelector("[role=status]");
  const menu = document.getElementById(input.getAttribute("aria-controls"));
  const own = [...menu.options];
  let models = null;
  const load = () =>
    (models ??= fetch(search.dataset.priceSearch)
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`HTTP ${response.status}`))))
      .then((feed) => feed.entries.filter((entry) => entry.kind === search.dataset.kind)));
  const option = (entry) => {
    const listed = own.find((candidate) => candidate.value === entry.id);
    if (listed) return listed;
    const name = search.dataset.option.replace("{name}", entry.name).replace("{date}", days.get(entry.read_on) ?? entry.read_on);
    const made = new Option(name, entry.id);
    made.dataset.entry = JSON.stringify(entry);
    return made;
  };
  const filter = async () => {
    const words = input.value.toLocaleLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) {
      menu.replaceChildren(...own);
      status.textContent = "";
      return;
    }
    let found;
    try {
      found = (await load()).filter((entry) => words.every((word) => `${entry.name} ${entry.id}`.toLocaleLowerCase().includes(word)));
    } catch {
      models = null; // asked again with the next keystroke
      status.textContent = search.dataset.failed;
      return;
    }
    menu.replaceChildren(own[0], ...found.slice(0, 200).map(option));
    // Every locale of the site writes digits 0-9, and a count below 1,000 has no group separator.
    status.textContent = found.length ? search.dataset.count.replace("{count}", String(found.length)) : search.dataset.none;
  };
  let timer = 0;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(filter, 150);
  });
  // Enter moves to the menu of what was found, rather than submitting the form.
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    menu.focus();
  });
}

// A menu that no longer describes the form shows no choice, and no source.
function clearPresetMenu(menu) {
  menu.value = "";
  showPriceSource(menu, null, new Map());
}

// Under a price menu, where the chosen price comes from: a link to the vendor's page, the day it holds for, and
// the open dataset it came through where it did (the feed's fields, or the build's own on its options).
function showPriceSource(menu, option, days) {
  const line = menu.parentElement.querySelector("[data-price-source]");
  if (!line) return;
  const entry = option?.dataset.entry ? JSON.parse(option.dataset.entry) : null;
  const source = entry?.source ?? option?.dataset.source;
  line.hidden = !source?.startsWith("https://");
  if (line.hidden) return line.replaceChildren();
  const readOn = entry?.read_on ?? option.dataset.readOn;
  const text = (entry?.dataset ? line.dataset.dataset.replace("{dataset}", entry.dataset) : line.dataset.own)
    .replace("{date}", days.get(readOn) ?? readOn);
  const [before, after = ""] = text.split("{source}");
  const link = document.createElement("a");
  link.href = source;
  link.rel = "noopener";
  link.textContent = line.dataset.link;
  line.replaceChildren(before, link, after);
}

// ---- tables a reader sorts (the comparison of every model): drawing/table.py gives each cell its number ----

// A button in each header of the table: the first press sorts by that column, smallest first, the next largest
// first. The table is redrawn with every result; the order the reader chose is kept on its figure and put back.
function makeSortable(root) {
  for (const table of root.querySelectorAll("table[data-sortable]")) {
    for (const [index, header] of [...table.tHead.rows[0].cells].entries()) {
      if (header.querySelector("[data-sort-column]")) continue;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "sort-button";
      button.dataset.sortColumn = String(index);
      button.append(...header.childNodes);
      header.append(button);
    }
    const [column, way] = (table.closest("[data-chart]")?.dataset.sorted ?? "").split(" ");
    if (way) sortTable(table, Number(column), way === "ascending");
  }
}

function sortTable(table, index, ascending) {
  const names = new Intl.Collator(document.documentElement.lang);
  const order = index === 0
    ? (a, b) => names.compare(a.cells[0].textContent, b.cells[0].textContent)
    : (a, b) => Number(a.cells[index].dataset.key) - Number(b.cells[index].dataset.key);
  const body = table.tBodies[0];
  body.append(...[...body.rows].sort((a, b) => (ascending ? order(a, b) : order(b, a))));
  const way = ascending ? "ascending" : "descending";
  for (const [column, cell] of [...table.tHead.rows[0].cells].entries()) {
    if (column === index) cell.setAttribute("aria-sort", way);
    else cell.removeAttribute("aria-sort");
  }
  const figure = table.closest("[data-chart]");
  if (figure) figure.dataset.sorted = `${index} ${way}`;
}

function sortBy(button) {
  const header = button.closest("th");
  sortTable(header.closest("table"), Number(button.dataset.sortColumn), header.getAttribute("aria-sort") !== "ascending");
}

function openDialog(dialog) {
  if (dialog.id === "share-dialog") fillShareDialog(dialog);
  if (dialog.id === "embed-dialog") fillEmbedDialog(dialog);
  for (const status of dialog.querySelectorAll("[data-copy-status]")) status.textContent = "";
  dialog.showModal();
}

// A modal dialog makes the page inert, but Tab can still leave for the browser's own UI: wrap it.
function trapFocus(dialog) {
  dialog.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const focusable = [...dialog.querySelectorAll("a[href], button, input, textarea, select, iframe")].filter(
      (element) => !element.disabled && element.getClientRects().length > 0,
    );
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
}

// This page's address with `params` (see carryValues); `tooLong` is told whether some did not fit.
function pageAddress(params, tooLong = () => {}) {
  const url = new URL(`${location.origin}${location.pathname}`);
  tooLong(carryValues(url, params));
  return url.href;
}

function fillShareDialog(dialog) {
  const note = dialog.querySelector("[data-too-long]");
  const link = pageAddress(shareableValues(), (dropped) => (note.hidden = !dropped));
  const title = document.querySelector("h1").textContent.trim();
  dialog.querySelector("[data-share-link]").value = link;
  const targets = {
    x: `https://twitter.com/intent/tweet?${new URLSearchParams({ url: link, text: title })}`,
    facebook: `https://www.facebook.com/sharer/sharer.php?${new URLSearchParams({ u: link })}`,
    line: `https://social-plugins.line.me/lineit/share?${new URLSearchParams({ url: link })}`,
    email: `mailto:?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(link)}`,
  };
  for (const anchor of dialog.querySelectorAll("[data-share-target]")) anchor.href = targets[anchor.dataset.shareTarget];
  const native = dialog.querySelector("[data-native-share]");
  if (navigator.share) {
    native.hidden = false;
    native.onclick = () => navigator.share({ title, url: link }).catch(() => {});
  }
}

function fillEmbedDialog(dialog) {
  const code = dialog.querySelector("[data-embed-code]");
  const params = changedValues();
  const preview = dialog.querySelector("[data-embed-preview]");
  const frameId = "preview";
  const src = new URL(preview.dataset.src, document.baseURI);
  src.hash = new URLSearchParams({ frame: frameId, host: location.origin }).toString();
  // The snippet's values become the embedded page's address (embed.js does as carryValues): what does not fit
  // in one is left out, and said.
  dialog.querySelector("[data-too-long]").hidden = !carryValues(src, params);
  const values = params.toString();
  const attributes = [
    `src="${code.dataset.script}"`,
    `data-calculator="${code.dataset.calculatorSlug}"`,
    `data-lang="${code.dataset.lang}"`,
    ...(values ? [`data-values="${values.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}"`] : []),
    "async",
  ];
  code.value = `<script ${attributes.join(" ")}></script>`;
  const iframe = document.createElement("iframe");
  iframe.title = preview.dataset.title;
  iframe.src = src.href;
  iframe.setAttribute("sandbox", "allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox");
  preview.replaceChildren(iframe);
  const onMessage = (event) => {
    if (event.origin !== location.origin || event.source !== iframe.contentWindow) return;
    const data = event.data;
    if (data?.type === "ai-calc:size" && data.frame === frameId && Number.isFinite(data.height)) {
      iframe.style.height = `${Math.min(Math.max(Math.ceil(data.height), 120), 5000)}px`;
    }
  };
  window.addEventListener("message", onMessage);
  dialog.addEventListener("close", () => window.removeEventListener("message", onMessage), { once: true });
}

function stampGeneratedDate() {
  const stamp = document.querySelector("[data-generated]");
  if (!stamp) return;
  const when = new Intl.DateTimeFormat(document.documentElement.lang, { dateStyle: "long", timeStyle: "short" });
  stamp.textContent = stamp.dataset.template.replace("{date}", when.format(new Date()));
}

// A printed report holds every input used, so closed advanced groups open for the print and close after it;
// it ends with the link that reproduces its numbers.
const openedForPrint = [];
function prepareReport() {
  for (const details of document.querySelectorAll("form details[data-advanced]:not([open])")) {
    details.open = true;
    openedForPrint.push(details);
  }
  const link = document.querySelector("[data-print-url]");
  if (link && engine) {
    link.href = pageAddress(changedValues());
    link.textContent = link.href;
  }
}

function restoreAfterPrint() {
  for (const details of openedForPrint.splice(0)) details.open = false;
}

function reset() {
  for (const field of fields(form)) field.value = field.dataset.default;
  for (const menu of form.querySelectorAll("[data-preset-select]")) clearPresetMenu(menu);
  for (const menu of form.querySelectorAll("select")) dropRejected(menu);
  history.replaceState(null, "", location.pathname);
  engine.request();
}

async function copy(text, button) {
  const status = button.closest("dialog, section")?.querySelector("[data-copy-status]");
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Older browsers, or a page without clipboard permission: select a hidden copy and use execCommand.
    const scratch = document.createElement("textarea");
    scratch.value = text;
    scratch.setAttribute("readonly", "");
    scratch.className = "visually-hidden";
    (button.closest("dialog") ?? document.body).append(scratch);
    scratch.select();
    document.execCommand("copy");
    scratch.remove();
  }
  if (status) status.textContent = button.dataset.copied;
  else {
    const label = button.textContent;
    button.textContent = button.dataset.copied;
    setTimeout(() => (button.textContent = label), 1500);
  }
}

function setUpMoreLists() {
  for (const list of document.querySelectorAll("[data-collapsible]")) {
    const button = list.parentElement.querySelector("[data-more]");
    if (!button) continue;
    const extra = [...list.children].slice(Number(list.dataset.visible));
    const show = (expanded) => {
      for (const item of extra) item.hidden = !expanded;
      button.textContent = expanded ? button.dataset.lessText : button.dataset.moreText;
      button.setAttribute("aria-expanded", String(expanded));
    };
    button.hidden = false;
    button.addEventListener("click", () => show(button.getAttribute("aria-expanded") !== "true"));
    show(false);
  }
}

function setUpFeedback() {
  const feedbackForm = document.querySelector("[data-feedback-form]");
  if (!feedbackForm) return;
  const thanks = document.querySelector("[data-feedback-thanks]");
  const choice = document.querySelector("[data-feedback-choice]");
  feedbackForm.hidden = true;
  choice.querySelector('[data-feedback="yes"]').addEventListener("click", () => {
    choice.hidden = true;
    feedbackForm.hidden = true;
    thanks.hidden = false;
  });
  const improve = choice.querySelector('[data-feedback="no"]');
  improve.addEventListener("click", () => {
    feedbackForm.hidden = false;
    improve.setAttribute("aria-expanded", "true");
    feedbackForm.querySelector("textarea").focus();
  });
  feedbackForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(feedbackForm);
    const body = `${data.get("body")}\n\n---\n${pageAddress(shareableValues())}`;
    const query = [...data.keys()]
      .map((key) => `${encodeURIComponent(key)}=${encodeURIComponent(key === "body" ? body : data.get(key))}`)
      .join("&");
    window.open(`${feedbackForm.action}?${query}`, "_blank", "noopener");
    feedbackForm.hidden = true;
    choice.hidden = true;
    thanks.hidden = false;
  });
}
