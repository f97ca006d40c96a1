(function () {
  "use strict";
  var d = JSON.parse(document.getElementById("data").textContent);
  var last = d.sfens.length - 1;
  var img = document.getElementById("board");
  var sfen = document.getElementById("sfen");
  var info = document.getElementById("plyinfo");
  var current = document.getElementById("current");
  var list = document.getElementById("moves");
  var buttons = {
    first: document.getElementById("first"),
    prev: document.getElementById("prev"),
    next: document.getElementById("next"),
    last: document.getElementById("last")
  };
  var ply = Number(document.body.getAttribute("data-ply")) || 0;

  function show(p, remember) {
    p = Math.max(0, Math.min(last, p));
    ply = p;
    img.src = d.board + p + ".png";
    img.alt = d.alt + " " + p;
    sfen.textContent = d.sfens[p];
    info.textContent = d.ply + " " + p + " / " + last;
    current.textContent = d.lines[p];
    document.body.setAttribute("data-ply", String(p));
    buttons.first.disabled = buttons.prev.disabled = p === 0;
    buttons.next.disabled = buttons.last.disabled = p === last;
    var items = list.querySelectorAll("li");
    for (var i = 0; i < items.length; i++) {
      var on = Number(items[i].getAttribute("data-ply")) === p;
      items[i].className = on ? "on" : "";
      if (on && remember && items[i].scrollIntoView) {
        items[i].scrollIntoView({ block: "nearest" });
      }
    }
    if (remember && history.replaceState) {
      history.replaceState(null, "", "#ply=" + p);
    }
  }

  buttons.first.addEventListener("click", function () { show(0, true); });
  buttons.prev.addEventListener("click", function () { show(ply - 1, true); });
  buttons.next.addEventListener("click", function () { show(ply + 1, true); });
  buttons.last.addEventListener("click", function () { show(last, true); });
  list.addEventListener("click", function (e) {
    var li = e.target.closest ? e.target.closest("li") : null;
    if (li) {
      e.preventDefault();
      show(Number(li.getAttribute("data-ply")), true);
    }
  });
  var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || !keys[e.key]) {
      return;
    }
    e.preventDefault();
    buttons[keys[e.key]].click();
  });

  // `#ply=N` shows ply N; `press=next,prev,…` then presses those buttons and
  // `keys=ArrowRight,…` those keys, in order (links to a position, and the
  // browser test's way of stepping through the same code paths).
  function fromHash() {
    var params = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i > 0) {
        params[kv.slice(0, i)] = kv.slice(i + 1);
      }
    });
    if (/^\d+$/.test(params.ply || "")) {
      show(Number(params.ply), false);
    }
    (params.press || "").split(",").forEach(function (name) {
      if (buttons[name]) {
        buttons[name].click();
      }
    });
    (params.keys || "").split(",").forEach(function (key) {
      if (keys[key]) {
        document.dispatchEvent(new KeyboardEvent("keydown", { key: key, bubbles: true }));
      }
    });
  }
  window.addEventListener("hashchange", fromHash);
  show(ply, false);
  fromHash();
})();
