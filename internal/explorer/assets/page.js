// The script of `cairn show -html`: interaction only. Everything shown
// comes from the JSON model in #model (built and masked in Go) and the SVG
// drawn in Go; nothing here formats a value or reaches the network.
(function () {
  "use strict";

  var model = JSON.parse(document.getElementById("model").textContent);

  // Why an action was chosen, by Terraform's JSON name of the reason.
  var REASONS = {
    replace_because_tainted: "the object is tainted",
    replace_by_request: "replacement was requested (-replace)",
    replace_because_cannot_update: "attributes that cannot be updated in place changed",
    replace_by_triggers: "replace_triggered_by changed",
    delete_because_no_resource_config: "the resource is no longer in the configuration",
    delete_because_wrong_repetition: "the resource's count or for_each changed how it repeats",
    delete_because_count_index: "the index is out of range for count",
    delete_because_each_key: "the key is not in the for_each map",
    read_because_config_unknown: "the configuration refers to values not yet known",
    read_because_dependency_pending: "it depends on changes pending",
    delete_because_no_module: "its module instance is no longer in the configuration",
    read_because_check_nested: "a check block reads it again after apply",
    delete_because_no_move_target: "it was moved to an address not in the configuration"
  };
  var SYMBOLS = ["-/+", "+/-", "<=", "+", "-", "~", "."];

  // items are every entry of the page: {e: entry, sec: section, i: index, el}.
  var items = [];
  var byId = {};

  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = text;
    return n;
  }

  // symbol returns the action marker the block's first non-comment line
  // starts with, as the text prints it.
  function symbol(e) {
    var lines = e.text.split("\n");
    for (var i = 0; i < lines.length; i++) {
      var k = e.kinds.charAt(i);
      if (k === "1" || k === "2") continue;
      var t = lines[i].trim();
      for (var j = 0; j < SYMBOLS.length; j++) {
        if (t.indexOf(SYMBOLS[j] + " ") === 0) return SYMBOLS[j];
      }
      return "";
    }
    return "";
  }

  function moduleName(e) {
    if (e.module < 0) return "";
    return model.modules[e.module] || "(root module)";
  }

  function summaryOf(it) {
    var e = it.e;
    var s = el("summary");
    s.appendChild(el("span", "sym", symbol(e)));
    s.appendChild(el("span", "addr", e.addr + (e.deposed ? " (deposed object " + e.deposed + ")" : "")));
    (e.tags || []).forEach(function (t) { s.appendChild(el("span", "tag t-" + t, t)); });
    if (e.replace && e.replace.length) s.appendChild(el("span", "tag t-replace-reason", "forced by " + e.replace.join(", ")));
    return s;
  }

  function build(sec, list, container) {
    if (!container || !list) return;
    var frag = document.createDocumentFragment();
    var lastModule = null;
    list.forEach(function (e, i) {
      if (model.kind === "state" && sec === "changes" && e.module !== lastModule) {
        lastModule = e.module;
        frag.appendChild(el("div", "module-head", moduleName(e)));
      }
      var it = {e: e, sec: sec, i: i, el: el("details", "entry a-" + e.action), hay: null, rendered: false};
      it.el.id = sec + "-" + i;
      it.el.appendChild(summaryOf(it));
      it.el.addEventListener("toggle", function () { if (it.el.open) renderBody(it); });
      items.push(it);
      byId[it.el.id] = it;
      frag.appendChild(it.el);
    });
    container.appendChild(frag);
  }

  // renderBody fills an entry's details the first time it opens: a page
  // of thousands of changes lays out only their summaries.
  function renderBody(it) {
    if (it.rendered) return;
    it.rendered = true;
    var e = it.e;
    var meta = el("dl", "meta");
    function add(term, value, node) {
      meta.appendChild(el("dt", "", term));
      var dd = el("dd", "", value);
      if (node) dd.appendChild(node);
      meta.appendChild(dd);
    }
    if (e.reason) add("Why", (REASONS[e.reason] || e.reason) + " (" + e.reason + ")");
    if (e.replace && e.replace.length) add("Forces replacement", e.replace.join(", "));
    if (e.movedFrom) add("Moved from", e.movedFrom);
    if (e.importId) add("Imported from", e.importId);
    if (e.deposed) add("Deposed object", e.deposed);
    if (e.module >= 0) add("Module", moduleName(e));
    if (e.provider >= 0) add("Provider", model.providers[e.provider]);
    if (e.deps) {
      var span = el("span");
      e.deps.forEach(function (d, j) {
        if (j) span.appendChild(document.createTextNode(", "));
        var target = resourceEntry[d];
        if (target === undefined) { span.appendChild(document.createTextNode(d)); return; }
        var a = el("a", "", d);
        a.href = "#changes-" + target;
        a.addEventListener("click", function (ev) { ev.preventDefault(); openEntry("changes-" + target); });
        span.appendChild(a);
      });
      add("Depends on", "", span);
    }
    if (nodesOfEntry[it.el.id]) {
      var b = el("button", "", "show in graph");
      b.type = "button";
      b.addEventListener("click", function () { select(nodesOfEntry[it.el.id], false); });
      add("Graph", "", b);
    }
    it.el.appendChild(meta);
    it.el.appendChild(diff(e));
  }

  var FORCES = " # forces replacement";

  function diff(e) {
    var pre = el("pre", "diff");
    var lines = e.text.split("\n");
    for (var i = 0; i < lines.length; i++) {
      var l = lines[i];
      var span = el("span", "k" + e.kinds.charAt(i));
      var f = l.lastIndexOf(FORCES);
      if (f >= 0 && f === l.length - FORCES.length) {
        span.textContent = l.slice(0, f);
        span.appendChild(el("b", "forces", FORCES));
      } else {
        span.textContent = l;
      }
      pre.appendChild(span);
    }
    return pre;
  }

  build("drift", model.drift, document.getElementById("drift"));
  build("changes", model.changes, document.getElementById("changes"));
  build("outputs", model.outputs, document.getElementById("outputs"));
  if (!model.changes || !model.changes.length) {
    document.getElementById("changes").appendChild(el("p", "empty", model.kind === "plan" ? "No resource changes." : "No resources."));
  }

  // resourceEntry maps a resource address to its first object's entry
  // (state view: dependencies link to them).
  var resourceEntry = {};
  (model.changes || []).forEach(function (e, i) {
    var r = e.addr.replace(/\[[^\[\]]*\]$/, "");
    if (!(r in resourceEntry)) resourceEntry[r] = i;
  });

  // ---- Filters and search ----
  var form = document.getElementById("filters");
  var fModule = document.getElementById("filter-module");
  var fProvider = document.getElementById("filter-provider");
  var fType = document.getElementById("filter-type");
  var fSearch = document.getElementById("search");
  var shown = document.getElementById("shown");

  function fillSelect(sel, values) {
    values.sort().forEach(function (v) {
      var o = el("option", "", v.label);
      o.value = v.value;
      sel.appendChild(o);
    });
  }
  (function () {
    var mods = {}, provs = {}, types = {};
    items.forEach(function (it) {
      if (it.e.module >= 0) mods[it.e.module] = true;
      if (it.e.provider >= 0) provs[it.e.provider] = true;
      if (it.e.type) types[it.e.type] = true;
    });
    fillSelect(fModule, Object.keys(mods).map(function (m) { return {value: m, label: model.modules[m] || "(root module)"}; }));
    fillSelect(fProvider, Object.keys(provs).map(function (p) { return {value: p, label: model.providers[p]}; }));
    fillSelect(fType, Object.keys(types).map(function (t) { return {value: t, label: t}; }));
  })();

  function checkedActions() {
    var boxes = form.querySelectorAll('input[name="action"]');
    if (!boxes.length) return null;
    var out = {};
    boxes.forEach(function (b) { if (b.checked) out[b.value] = true; });
    return out;
  }

  function matches(it, f) {
    var e = it.e;
    if (f.actions) {
      var ok = f.actions[e.action] || (e.action === "none" && !(e.tags && e.tags.length));
      (e.tags || []).forEach(function (t) { if (f.actions[t]) ok = true; });
      if (!ok) return false;
    }
    if (f.module !== "" && String(e.module) !== f.module) return false;
    if (f.provider !== "" && String(e.provider) !== f.provider) return false;
    if (f.type !== "" && e.type !== f.type) return false;
    if (f.q) {
      if (it.hay === null) it.hay = (e.addr + "\n" + e.text + "\n" + (e.movedFrom || "") + "\n" + (e.importId || "")).toLowerCase();
      if (it.hay.indexOf(f.q) < 0) return false;
    }
    return true;
  }

  function applyFilters() {
    var f = {actions: checkedActions(), module: fModule.value, provider: fProvider.value, type: fType.value, q: fSearch.value.trim().toLowerCase()};
    var n = 0;
    items.forEach(function (it) {
      var ok = matches(it, f);
      it.el.hidden = !ok;
      if (ok) n++;
    });
    shown.textContent = n === items.length ? items.length + " shown" : n + " of " + items.length + " shown";
    markFilteredNodes();
  }

  form.addEventListener("submit", function (ev) { ev.preventDefault(); });
  form.addEventListener("change", applyFilters);
  fSearch.addEventListener("input", applyFilters);
  document.querySelectorAll(".summary button[data-action]").forEach(function (b) {
    if (b.querySelector("b").textContent === "0") b.classList.add("zero");
    b.addEventListener("click", function () {
      var want = b.getAttribute("data-action");
      var boxes = form.querySelectorAll('input[name="action"]');
      var only = true;
      boxes.forEach(function (x) { if (x.checked !== (x.value === want)) only = false; });
      boxes.forEach(function (x) { x.checked = only || x.value === want; });
      applyFilters();
    });
  });
  document.getElementById("expand-all").addEventListener("click", function () {
    items.forEach(function (it) { if (!it.el.hidden) it.el.open = true; });
  });
  document.getElementById("collapse-all").addEventListener("click", function () {
    items.forEach(function (it) { it.el.open = false; });
  });
  document.getElementById("reset").addEventListener("click", function () {
    form.reset();
    applyFilters();
    clearSelection();
  });

  function openEntry(id) {
    var it = byId[id];
    if (!it) return;
    if (it.el.hidden) { it.el.hidden = false; }
    it.el.open = true;
    renderBody(it);
    it.el.scrollIntoView({block: "nearest"});
    it.el.classList.add("flash");
    setTimeout(function () { it.el.classList.remove("flash"); }, 1200);
  }

  // ---- The graph ----
  var graph = document.getElementById("graph");
  var svg = graph ? graph.querySelector("svg") : null;
  var g = model.graph || {entries: {}};
  var nodes = {}, deps = {}, rdeps = {}, edges = [];
  // nodesOfEntry maps an entry's element id to the drawn node that
  // stands for it; entriesOfNode the other way, every entry.
  var nodesOfEntry = {}, entriesOfNode = {};
  var section = "changes";
  if (svg) {
    svg.querySelectorAll("g.node").forEach(function (n) {
      var id = n.getAttribute("data-node");
      nodes[id] = n;
      deps[id] = [];
      rdeps[id] = [];
    });
    svg.querySelectorAll("g.edge").forEach(function (x) {
      var f = x.getAttribute("data-from"), t = x.getAttribute("data-to");
      if (!(f in nodes) || !(t in nodes)) return;
      deps[f].push(t);
      rdeps[t].push(f);
      edges.push({el: x, from: f, to: t});
    });
    // What each drawn node opens: its entry, or its members' entries.
    var drawnOf = {};
    Object.keys(nodes).forEach(function (id) { drawnOf[id] = id; });
    Object.keys(g.members || {}).forEach(function (id) {
      g.members[id].forEach(function (m) { drawnOf[m] = id; });
    });
    Object.keys(g.entries).forEach(function (id) {
      var entryId = section + "-" + g.entries[id], d = drawnOf[id];
      if (!d || !byId[entryId]) return;
      if (!(entryId in nodesOfEntry)) nodesOfEntry[entryId] = d;
      (entriesOfNode[d] = entriesOfNode[d] || []).push(entryId);
    });
  }

  // closure returns every node reachable from id along adj, without id.
  function closure(id, adj) {
    var seen = {}, stack = [id], out = [];
    seen[id] = true;
    while (stack.length) {
      var n = stack.pop();
      var next = adj[n] || [];
      for (var i = 0; i < next.length; i++) {
        if (!seen[next[i]]) { seen[next[i]] = true; out.push(next[i]); stack.push(next[i]); }
      }
    }
    return out;
  }

  function clearSelection() {
    if (!svg) return;
    graph.classList.remove("highlighting");
    svg.querySelectorAll(".selected, .dep, .rdep, .dimmed").forEach(function (n) {
      n.classList.remove("selected", "dep", "rdep", "dimmed");
    });
    document.getElementById("members").hidden = true;
  }

  // select highlights a node, what it depends on (transitively) and what
  // depends on it (its blast radius), dims the rest, and opens its change;
  // open is false when the change asked for the node.
  function select(id, open) {
    if (!nodes[id]) return;
    clearSelection();
    var d = {}, r = {};
    closure(id, deps).forEach(function (n) { d[n] = true; });
    closure(id, rdeps).forEach(function (n) { r[n] = true; });
    graph.classList.add("highlighting");
    Object.keys(nodes).forEach(function (n) {
      var c = n === id ? "selected" : d[n] ? "dep" : r[n] ? "rdep" : "dimmed";
      nodes[n].classList.add(c);
    });
    edges.forEach(function (x) {
      if ((x.from === id || d[x.from]) && d[x.to]) x.el.classList.add("dep");
      else if ((x.to === id || r[x.to]) && r[x.from]) x.el.classList.add("rdep");
      else x.el.classList.add("dimmed");
    });
    if (open === false) { centerOn(id); return; }
    if (g.members && g.members[id]) { showMembers(id); return; }
    if (id in g.entries) openEntry(section + "-" + g.entries[id]);
  }

  // showMembers lists what a folded node stands for, each linked to its
  // change.
  function showMembers(id) {
    var box = document.getElementById("members");
    box.textContent = "";
    box.appendChild(el("strong", "", (g.labels && g.labels[id]) || nodes[id].textContent));
    var ul = el("ul");
    g.members[id].forEach(function (m) {
      var li = el("li");
      var label = (g.labels && g.labels[m]) || m;
      if (m in g.entries) {
        var a = el("a", "", label);
        a.href = "#" + section + "-" + g.entries[m];
        a.addEventListener("click", function (ev) { ev.preventDefault(); openEntry(section + "-" + g.entries[m]); });
        li.appendChild(a);
      } else {
        li.textContent = label;
      }
      ul.appendChild(li);
    });
    box.appendChild(ul);
    box.hidden = false;
  }

  function markFilteredNodes() {
    if (!svg) return;
    Object.keys(entriesOfNode).forEach(function (id) {
      var any = entriesOfNode[id].some(function (entryId) { return !byId[entryId].el.hidden; });
      nodes[id].classList.toggle("filtered", !any);
    });
  }

  // ---- Zoom and pan: a CSS transform on the SVG ----
  var view = {s: 1, x: 0, y: 0};
  function applyView() {
    svg.style.transform = "translate(" + view.x + "px," + view.y + "px) scale(" + view.s + ")";
  }
  function zoomAt(factor, cx, cy) {
    var s = Math.min(8, Math.max(0.02, view.s * factor));
    view.x = cx - (cx - view.x) * (s / view.s);
    view.y = cy - (cy - view.y) * (s / view.s);
    view.s = s;
    applyView();
  }
  function size() {
    var vb = svg.viewBox && svg.viewBox.baseVal;
    return {w: vb && vb.width ? vb.width : svg.getBBox().width, h: vb && vb.height ? vb.height : svg.getBBox().height};
  }
  function fit() {
    var sz = size(), w = graph.clientWidth, h = graph.clientHeight;
    view.s = Math.min(1.5, w / sz.w, h / sz.h);
    view.x = (w - sz.w * view.s) / 2;
    view.y = Math.max(0, (h - sz.h * view.s) / 2);
    applyView();
  }
  function centerOn(id) {
    var b = nodes[id].getBBox();
    view.x = graph.clientWidth / 2 - (b.x + b.width / 2) * view.s;
    view.y = graph.clientHeight / 2 - (b.y + b.height / 2) * view.s;
    applyView();
  }
  if (svg) {
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    var sz = size();
    svg.setAttribute("width", sz.w);
    svg.setAttribute("height", sz.h);
    fit();
    graph.addEventListener("wheel", function (ev) {
      ev.preventDefault();
      var r = graph.getBoundingClientRect();
      zoomAt(ev.deltaY < 0 ? 1.15 : 1 / 1.15, ev.clientX - r.left, ev.clientY - r.top);
    }, {passive: false});
    document.getElementById("zoom-in").addEventListener("click", function () { zoomAt(1.25, graph.clientWidth / 2, graph.clientHeight / 2); });
    document.getElementById("zoom-out").addEventListener("click", function () { zoomAt(0.8, graph.clientWidth / 2, graph.clientHeight / 2); });
    document.getElementById("zoom-fit").addEventListener("click", fit);
    document.getElementById("clear-selection").addEventListener("click", clearSelection);
    var drag = null, moved = false;
    graph.addEventListener("pointerdown", function (ev) {
      drag = {x: ev.clientX, y: ev.clientY, vx: view.x, vy: view.y};
      moved = false;
    });
    window.addEventListener("pointermove", function (ev) {
      if (!drag) return;
      var dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
      if (!moved && Math.abs(dx) + Math.abs(dy) < 4) return;
      moved = true;
      graph.classList.add("panning");
      view.x = drag.vx + dx;
      view.y = drag.vy + dy;
      applyView();
    });
    window.addEventListener("pointerup", function () { drag = null; graph.classList.remove("panning"); });
    graph.addEventListener("click", function (ev) {
      if (moved) { moved = false; return; }
      var n = ev.target.closest ? ev.target.closest("g.node") : null;
      if (n) select(n.getAttribute("data-node"));
      else clearSelection();
    });
    graph.addEventListener("keydown", function (ev) {
      if (ev.key === "+" || ev.key === "=") zoomAt(1.25, graph.clientWidth / 2, graph.clientHeight / 2);
      else if (ev.key === "-") zoomAt(0.8, graph.clientWidth / 2, graph.clientHeight / 2);
      else if (ev.key === "Escape") clearSelection();
    });
  }

  applyFilters();
  // For tests and the curious: the page's state, read-only in spirit.
  window.cairnExplorer = {model: model, select: select, clear: clearSelection, openEntry: openEntry, view: view};
})();
