// The script of `cairn show -html`: interaction only. Everything shown
// comes from the JSON model in #model (built and masked in Go) and the SVG
// drawn in Go; nothing here formats a value or reaches the network.
//
// A plan may hold 10,000 changes, so the start is kept cheap: the graph is
// measured before the list exists (measuring forces a layout), each entry
// is a bare <details> until it is first opened, and the style sheet lets
// the browser skip entries off screen (content-visibility).
(function () {
  "use strict";

  performance.mark("cairn:start");
  var model = JSON.parse(document.getElementById("model").textContent);
  // Entries travel with one-letter keys and their lines' indentation
  // apart (explorer/wire.go); indent keeps it, one character a line.
  function expand(w) {
    return {addr: w.a, module: w.m, provider: w.p, type: w.t, action: w.x, tags: w.g, reason: w.r,
      replace: w.f, movedFrom: w.mf, importId: w.im, deposed: w.dk, deps: w.d, text: w.s, kinds: w.k, indent: w.i};
  }
  ["changes", "drift", "outputs"].forEach(function (k) { if (model[k]) model[k] = model[k].map(expand); });
  performance.mark("cairn:parsed");

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
  var FORCES = " # forces replacement";
  var SECTION = "changes"; // the section graph nodes open entries of

  function $(id) { return document.getElementById(id); }

  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = text;
    return n;
  }

  function moduleName(e) {
    return e.module < 0 ? "" : (model.modules[e.module] || "(root module)");
  }

  // ---- The graph's drawing: sized and fitted first ----
  var graph = $("graph");
  var svg = graph ? graph.querySelector("svg") : null;
  var g = model.graph || {entries: {}};
  var view = {s: 1, x: 0, y: 0};

  function applyView() {
    // The box never scrolls itself: a script that scrolled a node into
    // view would leave the drawing offset where panning cannot undo it.
    graph.scrollLeft = 0;
    graph.scrollTop = 0;
    svg.style.transform = "translate(" + view.x + "px," + view.y + "px) scale(" + view.s + ")";
  }

  function zoomAt(factor, cx, cy) {
    var s = Math.min(8, Math.max(0.02, view.s * factor));
    view.x = cx - (cx - view.x) * (s / view.s);
    view.y = cy - (cy - view.y) * (s / view.s);
    view.s = s;
    applyView();
  }

  var drawing = {w: 1, h: 1};

  // fit shows the whole drawing, unless that would make its text smaller
  // than minScale: then it starts readable at the top left, to be panned.
  function fit(minScale) {
    var w = graph.clientWidth, h = graph.clientHeight;
    view.s = Math.max(minScale || 0, Math.min(1.25, w / drawing.w, h / drawing.h));
    view.x = Math.max(0, (w - drawing.w * view.s) / 2);
    view.y = Math.max(0, (h - drawing.h * view.s) / 2);
    applyView();
  }

  if (svg) {
    var vb = svg.viewBox.baseVal;
    drawing = {w: vb.width || 1, h: vb.height || 1};
    svg.setAttribute("width", drawing.w);
    svg.setAttribute("height", drawing.h);
    // The box is as tall as the drawing at the scale it starts at,
    // within limits, so a flat graph leaves no empty band.
    var start = Math.max(0.6, Math.min(1, graph.clientWidth / drawing.w));
    graph.style.height = Math.round(Math.min(window.innerHeight * 0.75, Math.max(220, drawing.h * start + 16))) + "px";
    fit(0.6);
  }
  performance.mark("cairn:fitted");

  // ---- The lists ----
  // Each section (drift, changes, outputs) shows the entries that match
  // the filters, CHUNK at a time: more are added as the end of the list
  // scrolls into view. An entry's element is made the first time it is
  // shown and kept.
  var CHUNK = 250;
  var items = [];  // every entry: {e, sec, i, el, hay, rendered}
  var byId = {};
  var sections = [];

  // symbol returns the action marker the block's first line that is not
  // a comment starts with, as the text prints it.
  function symbol(e) {
    var start = 0;
    for (var i = 0; i < e.kinds.length; i++) {
      var end = e.text.indexOf("\n", start);
      if (end < 0) end = e.text.length;
      var k = e.kinds.charAt(i);
      if (k !== "1" && k !== "2") {
        var t = e.text.slice(start, end).trim();
        for (var j = 0; j < SYMBOLS.length; j++) {
          if (t.indexOf(SYMBOLS[j] + " ") === 0) return SYMBOLS[j];
        }
        return "";
      }
      start = end + 1;
    }
    return "";
  }

  function elementOf(it) {
    if (it.el) return it.el;
    var e = it.e, d = el("details", "entry a-" + e.action), s = el("summary");
    d.id = it.sec + "-" + it.i;
    s.appendChild(el("span", "sym", symbol(e)));
    s.appendChild(el("span", "addr", e.addr + (e.deposed ? " (deposed object " + e.deposed + ")" : "")));
    (e.tags || []).forEach(function (t) { s.appendChild(el("span", "tag t-" + t, t)); });
    if (e.replace) s.appendChild(el("span", "tag t-forced", "forced by " + e.replace.join(", ")));
    d.appendChild(s);
    it.el = d;
    return d;
  }

  function section(sec, list) {
    var box = $(sec);
    if (!box) return;
    var sc = {name: sec, box: box, items: [], matched: [], shown: 0, lastModule: null};
    (list || []).forEach(function (e, i) {
      var it = {e: e, sec: sec, i: i, el: null, hay: null, rendered: false};
      sc.items.push(it);
      items.push(it);
      byId[sec + "-" + i] = it;
    });
    sc.list = el("div", "entry-list");
    sc.more = el("button", "more");
    sc.more.type = "button";
    sc.more.addEventListener("click", function () { showMore(sc, sc.shown + CHUNK); });
    box.appendChild(sc.list);
    box.appendChild(sc.more);
    // toggle does not bubble; one capturing listener serves every entry.
    box.addEventListener("toggle", function (ev) {
      var it = byId[ev.target.id];
      if (it && it.el.open) renderBody(it);
    }, true);
    sections.push(sc);
    if (window.IntersectionObserver) {
      new IntersectionObserver(function (seen) {
        if (seen[0].isIntersecting && sc.shown < sc.matched.length) showMore(sc, sc.shown + CHUNK);
      }, {rootMargin: "600px"}).observe(sc.more);
    }
  }

  // showMore shows the section's matching entries up to n.
  function showMore(sc, n) {
    n = Math.min(n, sc.matched.length);
    var frag = document.createDocumentFragment();
    for (; sc.shown < n; sc.shown++) {
      var it = sc.matched[sc.shown];
      if (model.kind === "state" && sc.name === "changes" && it.e.module !== sc.lastModule) {
        sc.lastModule = it.e.module;
        frag.appendChild(el("div", "module-head", moduleName(it.e)));
      }
      frag.appendChild(elementOf(it));
    }
    sc.list.appendChild(frag);
    var left = sc.matched.length - sc.shown;
    sc.more.hidden = left === 0;
    sc.more.textContent = "Show " + Math.min(left, CHUNK) + " more (" + left + " not shown)";
  }

  // relist shows a section's matching entries again from the start.
  function relist(sc, matched) {
    sc.matched = matched;
    sc.shown = 0;
    sc.lastModule = null;
    sc.list.textContent = "";
    showMore(sc, CHUNK);
  }

  section("drift", model.drift);
  section("changes", model.changes);
  section("outputs", model.outputs);
  if (!model.changes || !model.changes.length) {
    $("changes").appendChild(el("p", "empty", model.kind === "plan" ? "No resource changes." : "No resources."));
  }

  // resourceEntry maps a resource address to its first object's entry:
  // the state view's dependencies link to them.
  var resourceEntry = {};
  (model.changes || []).forEach(function (e, i) {
    var r = e.addr.replace(/\[[^\[\]]*\]$/, "");
    if (!(r in resourceEntry)) resourceEntry[r] = i;
  });

  // renderBody fills an entry the first time it opens.
  function renderBody(it) {
    if (it.rendered) return;
    it.rendered = true;
    it.el.appendChild(metaOf(it));
    it.el.appendChild(diffOf(it.e));
  }

  function metaOf(it) {
    var e = it.e, meta = el("dl", "meta");
    function add(term, value, node) {
      var pair = el("div", "pair");
      pair.appendChild(el("dt", "", term));
      var dd = el("dd", "", value);
      if (node) dd.appendChild(node);
      pair.appendChild(dd);
      meta.appendChild(pair);
    }
    if (e.reason) add("Why", (REASONS[e.reason] || e.reason) + " (" + e.reason + ")");
    if (e.replace) add("Forces replacement", e.replace.join(", "));
    if (e.movedFrom) add("Moved from", e.movedFrom);
    if (e.importId) add("Imported from", e.importId);
    if (e.deposed) add("Deposed object", e.deposed);
    if (e.module >= 0) add("Module", moduleName(e));
    if (e.provider >= 0) add("Provider", model.providers[e.provider]);
    if (e.deps) add("Depends on", "", depLinks(e.deps));
    if (nodesOfEntry[it.el.id]) {
      var b = el("button", "", "show in graph");
      b.type = "button";
      b.addEventListener("click", function () { select(nodesOfEntry[it.el.id], false); });
      add("Graph", "", b);
    }
    return meta;
  }

  function depLinks(deps) {
    var span = el("span");
    deps.forEach(function (d, j) {
      if (j) span.appendChild(document.createTextNode(", "));
      var target = resourceEntry[d];
      if (target === undefined) { span.appendChild(document.createTextNode(d)); return; }
      span.appendChild(entryLink(d, SECTION + "-" + target));
    });
    return span;
  }

  function entryLink(text, id) {
    var a = el("a", "", text);
    a.href = "#" + id;
    a.addEventListener("click", function (ev) { ev.preventDefault(); openEntry(id); });
    return a;
  }

  // diffOf shows the block line by line, coloured by each line's kind.
  function diffOf(e) {
    var pre = el("pre", "diff");
    var lines = e.text.split("\n");
    for (var i = 0; i < lines.length; i++) {
      // The page carries each line's indentation as one character.
      var l = " ".repeat(e.indent.charCodeAt(i) - 48) + lines[i], span = el("span", "k" + e.kinds.charAt(i));
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

  // openEntry shows, opens and scrolls to an entry: the filters are
  // reset when they hide it, and the list grows to reach it.
  function openEntry(id) {
    var it = byId[id];
    if (!it) return;
    var sc = sections.filter(function (x) { return x.name === it.sec; })[0];
    if (sc.matched.indexOf(it) < 0) {
      form.reset();
      applyFilters();
    }
    var pos = sc.matched.indexOf(it);
    if (pos >= sc.shown) showMore(sc, pos + 1);
    it.el.open = true;
    renderBody(it);
    it.el.scrollIntoView({block: "nearest"});
    it.el.classList.add("flash");
    setTimeout(function () { it.el.classList.remove("flash"); }, 1200);
  }

  // ---- The graph's nodes and edges ----
  var nodes = {}, deps = {}, rdeps = {}, edges = [];
  // nodesOfEntry maps an entry's element id to the drawn node that stands
  // for it; entriesOfNode maps a drawn node to all its entries.
  var nodesOfEntry = {}, entriesOfNode = {};
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
    var drawnOf = {};
    Object.keys(nodes).forEach(function (id) { drawnOf[id] = id; });
    Object.keys(g.members || {}).forEach(function (id) {
      g.members[id].forEach(function (m) { drawnOf[m] = id; });
    });
    Object.keys(g.entries).forEach(function (id) {
      var entryId = SECTION + "-" + g.entries[id], d = drawnOf[id];
      if (!d || !byId[entryId]) return;
      if (!(entryId in nodesOfEntry)) nodesOfEntry[entryId] = d;
      (entriesOfNode[d] = entriesOfNode[d] || []).push(entryId);
    });
  }

  // closure returns every node reachable from id along adj, without id.
  function closure(id, adj) {
    var seen = {}, stack = [id], out = {};
    seen[id] = true;
    while (stack.length) {
      var next = adj[stack.pop()];
      for (var i = 0; i < next.length; i++) {
        if (!seen[next[i]]) { seen[next[i]] = true; out[next[i]] = true; stack.push(next[i]); }
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
    $("members").hidden = true;
  }

  // select highlights a node, what it depends on (transitively: what
  // apply runs before it) and what depends on it (its blast radius), dims
  // the rest, and opens its change, or lists a folded node's members.
  // open is false when the change asked to be shown in the graph.
  function select(id, open) {
    if (!nodes[id]) return;
    clearSelection();
    var d = closure(id, deps), r = closure(id, rdeps);
    graph.classList.add("highlighting");
    Object.keys(nodes).forEach(function (n) {
      nodes[n].classList.add(n === id ? "selected" : d[n] ? "dep" : r[n] ? "rdep" : "dimmed");
    });
    edges.forEach(function (x) {
      if ((x.from === id || d[x.from]) && d[x.to]) x.el.classList.add("dep");
      else if ((x.to === id || r[x.to]) && r[x.from]) x.el.classList.add("rdep");
      else x.el.classList.add("dimmed");
    });
    if (open === false) { centerOn(id); return; }
    if (g.members && g.members[id]) showMembers(id);
    else if (id in g.entries) openEntry(SECTION + "-" + g.entries[id]);
  }

  // showMembers lists what a folded node stands for, each linked to its
  // change.
  function showMembers(id) {
    var box = $("members");
    box.textContent = "";
    box.appendChild(el("strong", "", nodeLabel(id) + ": " + g.members[id].length + " operations"));
    var ul = el("ul");
    // Members with a change come first, in the plan's order.
    var members = g.members[id].slice().sort(function (a, b) {
      var x = a in g.entries ? g.entries[a] : Infinity, y = b in g.entries ? g.entries[b] : Infinity;
      return x === y ? (a < b ? -1 : 1) : x - y;
    });
    members.forEach(function (m) {
      var li = el("li");
      if (m in g.entries) {
        var e = model.changes[g.entries[m]];
        li.appendChild(entryLink(e.addr, SECTION + "-" + g.entries[m]));
        li.appendChild(document.createTextNode(" (" + e.action + ")"));
      } else {
        li.textContent = (g.labels && g.labels[m]) || m;
      }
      ul.appendChild(li);
    });
    box.appendChild(ul);
    box.hidden = false;
  }

  // nodeLabel is a node's whole label: its text may be shortened.
  function nodeLabel(id) {
    var t = nodes[id].querySelector("title");
    return t ? t.textContent : nodes[id].textContent;
  }

  function centerOn(id) {
    var b = nodes[id].getBBox();
    view.x = graph.clientWidth / 2 - (b.x + b.width / 2) * view.s;
    view.y = graph.clientHeight / 2 - (b.y + b.height / 2) * view.s;
    applyView();
    graph.scrollIntoView({block: "nearest"});
  }

  if (svg) {
    graph.addEventListener("wheel", function (ev) {
      ev.preventDefault();
      var r = graph.getBoundingClientRect();
      zoomAt(ev.deltaY < 0 ? 1.15 : 1 / 1.15, ev.clientX - r.left, ev.clientY - r.top);
    }, {passive: false});
    function center(f) { return function () { zoomAt(f, graph.clientWidth / 2, graph.clientHeight / 2); }; }
    $("zoom-in").addEventListener("click", center(1.25));
    $("zoom-out").addEventListener("click", center(0.8));
    $("zoom-fit").addEventListener("click", function () { fit(0); });
    $("clear-selection").addEventListener("click", clearSelection);
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
      var n = ev.target.closest("g.node");
      if (n) select(n.getAttribute("data-node"));
      else clearSelection();
    });
    graph.addEventListener("keydown", function (ev) {
      if (ev.key === "+" || ev.key === "=") center(1.25)();
      else if (ev.key === "-") center(0.8)();
      else if (ev.key === "Escape") clearSelection();
    });
  }
  performance.mark("cairn:graph");

  // ---- Filters and search ----
  var form = $("filters");
  var fModule = $("filter-module"), fProvider = $("filter-provider"), fType = $("filter-type"), fSearch = $("search");

  function fillSelect(sel, values) {
    values.sort(function (a, b) { return a.label < b.label ? -1 : a.label > b.label ? 1 : 0; });
    values.forEach(function (v) {
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

  function filters() {
    var f = {actions: null, module: fModule.value, provider: fProvider.value, type: fType.value, q: fSearch.value.trim().toLowerCase()};
    var boxes = form.querySelectorAll('input[name="action"]');
    if (boxes.length) {
      f.actions = {};
      boxes.forEach(function (b) { if (b.checked) f.actions[b.value] = true; });
    }
    return f;
  }

  function matches(it, f) {
    var e = it.e;
    if (f.actions) {
      // A change that only imports or moves counts under its tags.
      var ok = !!f.actions[e.action] || (e.action === "none" && !e.tags);
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
    var f = filters(), n = 0;
    sections.forEach(function (sc) {
      var matched = sc.items.filter(function (it) { it.match = matches(it, f); return it.match; });
      n += matched.length;
      relist(sc, matched);
    });
    $("shown").textContent = n === items.length ? items.length + " match" : n + " of " + items.length + " match";
    markFilteredNodes();
  }

  // markFilteredNodes fades the nodes whose changes are all filtered out.
  function markFilteredNodes() {
    Object.keys(entriesOfNode).forEach(function (id) {
      var any = entriesOfNode[id].some(function (entryId) { return byId[entryId].match; });
      nodes[id].classList.toggle("filtered", !any);
    });
  }

  form.addEventListener("submit", function (ev) { ev.preventDefault(); });
  form.addEventListener("change", applyFilters);
  fSearch.addEventListener("input", applyFilters);
  document.querySelectorAll(".summary button[data-action]").forEach(function (b) {
    if (b.querySelector("b").textContent === "0") b.classList.add("zero");
    b.addEventListener("click", function () {
      // Show only this action; a second click shows everything again.
      var want = b.getAttribute("data-action");
      var boxes = form.querySelectorAll('input[name="action"]');
      var only = true;
      boxes.forEach(function (x) { if (x.checked !== (x.value === want)) only = false; });
      boxes.forEach(function (x) { x.checked = only || x.value === want; });
      applyFilters();
    });
  });
  $("expand-all").addEventListener("click", function () {
    sections.forEach(function (sc) {
      for (var i = 0; i < sc.shown; i++) {
        sc.matched[i].el.open = true;
        renderBody(sc.matched[i]); // toggle events come later, one task each
      }
    });
  });
  $("collapse-all").addEventListener("click", function () {
    items.forEach(function (it) { if (it.el) it.el.open = false; });
  });
  $("reset-filters").addEventListener("click", function () {
    form.reset();
    applyFilters();
    clearSelection();
  });

  applyFilters();
  performance.mark("cairn:ready");
  // For tests and the curious.
  window.cairnExplorer = {model: model, select: select, clear: clearSelection, openEntry: openEntry, view: view};
})();
