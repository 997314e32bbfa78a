/* The isnad explorer: search, a hadith's text and grades, its isnad tree as a layered graph from the Prophet
   down to the compilers, the versions' wording, a narrator's profile with his teachers and students, and the
   relation between two narrators.
   It asks the public GraphQL API only, through persisted documents (the hash first, the text when asked). */
"use strict";

const DOCUMENTS = JSON.parse(document.getElementById("documents").textContent);
const LAYER_HEIGHT = 80;
const NODE_GAP = 120;
const PROPHET = "prophet";
const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

async function post(body) {
  const response = await fetch("graphql", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/graphql-response+json, application/json" },
    body: JSON.stringify(body),
  });
  return response.json();
}

async function ask(name, variables) {
  const { hash, text } = DOCUMENTS[name];
  const extensions = { persistedQuery: { version: 1, sha256Hash: hash } };
  let body = await post({ extensions, variables });
  const unknown = (body.errors || []).some((e) => (e.extensions || {}).code === "PERSISTED_QUERY_NOT_FOUND");
  if (unknown) body = await post({ query: text, extensions, variables });
  if (body.errors) throw new Error(body.errors.map((e) => e.message).join("; "));
  return body.data;
}

function element(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  made.append(...children);
  return made;
}

function shape(tag, attributes = {}) {
  const made = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  return made;
}

function fail(error) {
  $("error").hidden = false;
  $("error").textContent = String(error.message || error);
}

/* Layout: a node's layer is its greatest distance below the Prophet over the chains it stands in; the
   compilers (one per version) sit below the deepest layer. Within a layer, nodes are ordered by the mean place
   of the nodes above them (one pass down), which keeps a chain's nodes roughly in a column. */
function layout(tree) {
  const layer = new Map([[PROPHET, 0]]);
  const below = new Map();
  const link = (upper, lower) => {
    if (!below.has(upper)) below.set(upper, new Set());
    below.get(upper).add(lower);
  };
  let deepest = 0;
  for (const chain of tree.chains) {
    const keys = chain.node_keys;
    keys.forEach((key, index) => {
      const depth = keys.length - index;
      layer.set(key, Math.max(layer.get(key) || 0, depth));
      deepest = Math.max(deepest, depth);
      link(index === keys.length - 1 ? PROPHET : keys[index + 1], key);
    });
  }
  const compilers = [...new Set(tree.chains.map((chain) => "compiler:" + chain.canonical_reference))];
  for (const chain of tree.chains) {
    if (chain.node_keys.length) link(chain.node_keys[0], "compiler:" + chain.canonical_reference);
  }
  compilers.forEach((key) => layer.set(key, deepest + 1));
  const layers = [];
  for (const [key, depth] of layer) (layers[depth] = layers[depth] || []).push(key);
  const place = new Map([[PROPHET, 0]]);
  const above = new Map();
  for (const [upper, lowers] of below) for (const lower of lowers) (above.get(lower) || above.set(lower, []).get(lower)).push(upper);
  for (const row of layers.filter(Boolean)) {
    const mean = (key) => {
      const uppers = (above.get(key) || []).filter((upper) => place.has(upper));
      return uppers.length ? uppers.reduce((sum, upper) => sum + place.get(upper), 0) / uppers.length : 0;
    };
    row.sort((a, b) => mean(a) - mean(b));
    row.forEach((key, index) => place.set(key, index - (row.length - 1) / 2));
  }
  const width = Math.max(...layers.filter(Boolean).map((row) => row.length)) * NODE_GAP + NODE_GAP;
  const at = new Map();
  for (const [key, depth] of layer) at.set(key, { x: width / 2 + place.get(key) * NODE_GAP, y: 30 + depth * LAYER_HEIGHT });
  return { at, below, width, height: (deepest + 2) * LAYER_HEIGHT };
}

function label(node) {
  const narrator = node.narrator;
  const name = narrator ? narrator.canonical_display || narrator.name_ar : node.mention_ar || "?";
  return name.length > 18 ? name.slice(0, 17) + "…" : name;
}

function drawNode(svg, key, at, content, classes) {
  const group = shape("g", { class: "node " + classes, "data-key": key, transform: `translate(${at.x},${at.y})` });
  const under = classes.includes("virtual") ? 4 : 24;  // a box holds its label; a circle's stands under it
  group.append(content, Object.assign(shape("text", { y: under, "text-anchor": "middle" }), { textContent: content.dataset.label }));
  svg.append(group);
  return group;
}

function drawTree(tree, onSelect) {
  const started = performance.now();
  const { at, below, width, height } = layout(tree);
  window.explorerLayoutMs = performance.now() - started;
  const svg = $("tree");
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  const failed = new Set(tree.chains.filter((chain) => chain.evidence_status !== "fact").map((chain) => chain.chain_id));
  const edgeChains = new Map();
  for (const chain of tree.chains) {
    chain.node_keys.forEach((key, index) => {
      const upper = index === chain.node_keys.length - 1 ? PROPHET : chain.node_keys[index + 1];
      const pair = upper + ">" + key;
      edgeChains.set(pair, [...(edgeChains.get(pair) || []), chain.chain_id]);
    });
  }
  for (const [upper, lowers] of below) {
    for (const lower of lowers) {
      const chains = edgeChains.get(upper + ">" + lower) || [];
      const line = shape("line", { class: "edge", x1: at.get(upper).x, y1: at.get(upper).y, x2: at.get(lower).x, y2: at.get(lower).y });
      line.dataset.chains = chains.join(" ");
      if (chains.length && chains.every((chain) => failed.has(chain))) line.classList.add("failed");
      svg.append(line);
    }
  }
  const prophet = shape("rect", { x: -40, y: -12, width: 80, height: 24, rx: 4 });
  prophet.dataset.label = "The Prophet";
  drawNode(svg, PROPHET, at.get(PROPHET), prophet, "virtual");
  for (const node of tree.nodes) {
    const tier = node.narrator && node.narrator.grade_tier ? node.narrator.grade_tier : "none";
    const circle = shape("circle", { r: 10 });
    circle.dataset.label = label(node);
    const classes = [`tier-${tier}`, node.narrator_id === null ? "apart" : "", node.is_madar ? "madar" : ""].join(" ");
    const group = drawNode(svg, node.key, at.get(node.key), circle, classes);
    group.classList.add("narrator-node");
    group.setAttribute("tabindex", "0");
    group.setAttribute("role", "button");
    group.setAttribute("aria-label", `${label(node)}: ${node.resolution_statuses.join(", ")}${node.is_madar ? ", madar" : ""}`);
    const select = () => onSelect(node);
    group.addEventListener("click", select);
    group.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        select();
      }
    });
  }
  for (const key of at.keys()) {
    if (!key.startsWith("compiler:")) continue;
    const box = shape("rect", { x: -45, y: -12, width: 90, height: 24, rx: 4 });
    box.dataset.label = key.slice("compiler:".length);
    drawNode(svg, key, at.get(key), box, "virtual");
  }
}

function wording(version) {
  if (version.differences === null) return element("span", { class: "note" }, "No matn to compare.");
  if (!version.differences.length) return element("span", { class: "note" }, "The hadith's own wording.");
  const list = element("span", { class: "diff", lang: "ar", dir: "rtl" });
  for (const difference of version.differences) {
    if (difference.words_hadith) list.append(element("span", { class: "dropped" }, difference.words_hadith), " ");
    if (difference.words_version) list.append(element("span", { class: "added" }, difference.words_version), " ");
    list.append("… ");
  }
  return list;
}

function lightBranch(chainIds) {
  for (const line of $("tree").querySelectorAll(".edge")) {
    const chains = line.dataset.chains.split(" ").map(Number);
    line.classList.toggle("lit", chains.some((chain) => chainIds.includes(chain)));
  }
}

function showVersions(tree) {
  const list = $("versions");
  list.replaceChildren();
  for (const version of tree.versions) {
    const similarity = version.similarity === null ? "the hadith" : `similarity ${version.similarity}`;
    const button = element("button", { type: "button" }, `${version.canonical_reference} (${similarity}, ${version.chain_ids.length} chain(s))`);
    button.addEventListener("click", () => lightBranch(version.chain_ids));
    list.append(element("li", {}, button, " ", wording(version)));
  }
}

const selected = [];  // the ids of the last two narrators opened: a second asks how the two are related

function markSelected() {
  for (const group of $("tree").querySelectorAll(".narrator-node")) {
    group.classList.toggle("selected", selected.includes(Number(group.dataset.key.slice("narrator:".length))));
  }
}

function nameOf(narrator, id) {
  return (narrator && (narrator.canonical_display || narrator.name_ar)) || `narrator ${id}`;
}

function evidenceOf(relation) {
  const sources = relation.provenance.map((p) => `${p.source_title || p.source_id}${p.source_key ? `, record ${p.source_key}` : ""}`);
  return element("span", { class: "evidence" }, `${relation.evidence_status}: ${sources.join("; ")}`);
}

/* A relation as its source records it: attested in a plain frame; probable or ambiguous shown "possible" in a
   dashed one, never as attested; unresolved "not established". The word says it, not the colour alone. */
function statusOf(relation) {
  const normalized = relation.normalized_status;
  const words = normalized === "attested" ? "attested" : `${normalized.replace("_", " ")} (the source says ${relation.relation_status})`;
  return element("span", { class: `status ${normalized}` }, words);
}

function relationItem(relation, other) {
  const id = relation[`${other}_id`];
  const narrator = relation[other];
  const open = element("button", { type: "button", class: "narrator-link" }, nameOf(narrator, id));
  open.addEventListener("click", () => openNarrator(id, narrator).catch(fail));
  return element("li", { class: relation.normalized_status, "data-narrator": id, "data-status": relation.relation_status },
    open, " ", statusOf(relation), evidenceOf(relation));
}

function relationList(side, list, other) {
  const shown = list.truncated ? `, the first ${list.items.length} shown` : "";
  const heading = element("h4", {}, `${side === "teachers" ? "Teachers" : "Students"}: ${list.count} recorded${shown}`);
  if (!list.items.length) {
    return [heading, element("p", { class: "note" }, `No source here records his ${side}; that is not evidence that he had none.`)];
  }
  return [heading, element("ul", { class: "relations", "data-side": side }, ...list.items.map((r) => relationItem(r, other)))];
}

/* Opens a narrator's profile: `summary` is what the tree or a list already tells of him (his grade tier); the
   panel takes the focus unless he was chosen in the tree, where the keyboard stays. */
async function openNarrator(narratorId, summary, focusPanel = true) {
  selected.push(narratorId);
  if (selected.length > 2) selected.shift();
  markSelected();
  const { get_narrator_profile: profile } = await ask("narrator", { narrator_id: narratorId });
  const panel = $("narrator");
  panel.hidden = false;
  const heading = element("h3", { tabindex: "-1" }, profile.identity.canonical_display || "");
  panel.replaceChildren(
    heading,
    element("p", { lang: "ar", dir: "rtl" }, profile.identity.name_ar || ""),
    ...(summary ? [element("p", {}, `Grade tier: ${summary.grade_tier || "none stated"}`)] : []),
    element("ul", {}, ...profile.legacy_scholarly_data.map((f) => element("li", {}, `${f.field}: ${f.value ?? "not given"} (${f.evidence_status})`))),
    element("ul", {}, ...profile.canonical_assertions.map((a) => element("li", {}, `${a.field}: ${a.value} (${a.evidence_status})`))),
    element("ul", {}, ...profile.source_entries.map((e) => element("li", { lang: "ar", dir: "rtl" }, `${e.entry_id} (${e.resolution_status}): ${e.text}`))),
    element("h3", {}, "His place among teachers and students"),
    element("p", { class: "legend" }, "Attested: a source records the relation (a fact of that source). Possible: a source records it only as probable or ambiguous, never attested (an inference). Select a name to open that narrator; the two last opened show how they are related."),
    ...relationList("teachers", profile.teachers, "teacher"),
    ...relationList("students", profile.students, "student"),
  );
  panel.dataset.ready = narratorId;
  if (focusPanel) heading.focus();
  if (selected.length === 2) await showRelation(selected[0], selected[1]);
}

async function showRelation(a, b) {
  if (a === b) return;
  const { get_transmission_relation: found } = await ask("relation", { a, b });
  const panel = $("relation");
  panel.hidden = false;
  const recorded = (r) => element("li", { class: r.normalized_status },
    `${nameOf(r.teacher, r.teacher_id)} taught ${nameOf(r.student, r.student_id)}: `, statusOf(r), evidenceOf(r));
  panel.replaceChildren(
    element("h3", {}, `Narrators ${a} and ${b}`),
    element("h4", {}, "Relations recorded by a source"),
    element("ul", { class: "relations" }, ...found.relations.map(recorded)),
    element("h4", {}, "Observed adjacent in chains (never a recorded relation)"),
    element("ul", {}, ...found.chain_observations.map((o) => element("li", {}, `${o.canonical_reference}: ${o.upper_narrator_id} above ${o.lower_narrator_id} (${o.evidence_status})`))),
    element("p", { class: "note" }, found.capability_note || ""),
  );
  panel.dataset.ready = `${a} ${b}`;
}

async function openHadith(hadithId) {
  const { get_hadith: hadith } = await ask("hadith", { hadith_id: hadithId });
  $("hadith").hidden = false;
  $("reference").textContent = `${hadith.canonical_reference} — ${hadith.collection.name || ""}`;
  $("text-ar").textContent = hadith.text_ar || "";
  $("text-fr").textContent = hadith.text_fr || "No French text in the sources.";
  $("grades").querySelector("ul").replaceChildren(
    ...hadith.grades.items.map((g) => element("li", {}, `${g.grader}: ${g.grade} (${g.grade_class}, ${g.evidence_status})`)),
  );
  const tree = hadith.isnad_tree;
  const madar = tree.nodes.find((node) => node.is_madar);
  $("madar").textContent = madar
    ? `Madar: ${label(madar)} (named by ${tree.madar.chain_count} chains; an inference)`
    : `No madar: ${tree.madar_note}`;
  drawTree(tree, (node) => {
    if (node.narrator_id !== null) openNarrator(node.narrator_id, node.narrator, false).catch(fail);
  });
  $("tree").dataset.ready = hadith.hadith_id;
  const { get_hadith: versions } = await ask("versions", { hadith_id: hadithId });
  showVersions(versions.isnad_tree);
  $("versions").dataset.ready = hadith.hadith_id;
}

async function search(query) {
  const { search_hadith: found } = await ask("search", { query });
  const results = $("results");
  results.replaceChildren();
  if (found.capability_note) results.append(element("p", { class: "note" }, found.capability_note));
  for (const hit of found.results) {
    const button = element("button", { type: "button", "data-reference": hit.canonical_reference },
      `${hit.canonical_reference} (${hit.match_method})`, element("span", { class: "ar", lang: "ar" }, hit.text_ar || ""));
    button.addEventListener("click", () => openHadith(hit.hadith_id).catch(fail));
    results.append(button);
  }
  results.dataset.ready = "true";
}

$("search").addEventListener("submit", (event) => {
  event.preventDefault();
  $("error").hidden = true;
  search($("query").value).catch(fail);
});

window.explorer = { layout, openNarrator };
