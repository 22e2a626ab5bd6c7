// The phone's page: draws its seat's view as the server sends it, answers with one tick a second.
// No sound, no vibration, nothing kept in storage: the server holds the state, and a page reloaded gets it again.
"use strict";
(() => {
  const TEXTS = JSON.parse(document.getElementById("texts").textContent);
  const UP_FRAME = 512;  // bytes of every message the page sends (narrator/phones/views.py)
  const token = location.pathname.split("/").pop();
  const main = document.getElementById("view");
  const link = document.getElementById("link");
  const text = (key) => TEXTS["phone." + key] || "";
  let socket = null, shown = "", view = null, pending = null, final = false, delay = 500, retry = null, lock = null;

  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => k === "class" ? node.className = v : node.setAttribute(k, v));
    children.forEach((child) => node.append(child));
    return node;
  };

  function draw(kind, ...children) {
    main.replaceChildren(...children);
    main.dataset.kind = kind;
  }

  function render() {
    const v = view;
    if (v.kind === "sleep") {
      // During the deal nobody's eyes are closed: the page says whether the card came, not that the table sleeps.
      // After it, a page without a card (real cards dealt) says nothing of one.
      const face = el("p", {class: "card", id: "card"});
      const said = v.deal ? (v.card ? "dealt" : "no_card") : "sleep";
      const nodes = [el("p", {class: "dim"}, text(said)), face];
      if (v.card) {
        const hold = el("button", {class: "hold", id: "hold", type: "button"}, text("show_card"));
        const show = (on) => { face.textContent = on ? v.card : ""; };
        hold.addEventListener("pointerdown", () => show(true));
        ["pointerup", "pointerleave", "pointercancel", "blur"].forEach((e) => hold.addEventListener(e, () => show(false)));
        nodes.push(hold);
      }
      draw("sleep", ...nodes);
    } else if (v.kind === "ask") {
      if (v.steps) { step(v, []); return; }
      const list = el("div", {class: "choices"});
      v.choices.forEach((name, index) => {
        const button = el("button", {class: "choice", type: "button", "data-index": String(index)}, name);
        button.addEventListener("click", () => readBack(v, index, [name]));
        list.append(button);
      });
      draw("ask", el("h1", {}, v.title), ...facts(v), list);
    } else if (v.kind === "told") {
      const nodes = [el("h1", {}, v.title), ...facts(v), el("p", {class: "text"}, v.text || "")];
      if (v.ok) {
        const ok = el("button", {class: "primary", id: "ok", type: "button"}, text("ok"));
        ok.addEventListener("click", () => {
          pending = {call: v.ok, ok: 1};
          draw("sent", el("p", {class: "dim"}, text("sleep")));  // read: dark again at once, nothing sent but a tick
        });
        nodes.push(ok);
      }
      draw("told", ...nodes);
    } else if (["taken", "stopped", "ended", "over"].includes(v.kind)) {
      final = v.kind !== "stopped";  // a stopped game may go on (resume): the page keeps looking for it
      draw(v.kind, el("p", {class: "dim"}, text(v.kind)));
    }
  }

  function facts(v) {
    // What the call shows the awake (the Witch's victim and potions, the Seer's look): the host screen's lines.
    return (v.shown || []).map((line) => el("p", {class: "shown"}, line));
  }

  function step(v, chosen) {
    // An answer in several steps: at each, only the names that lead to an answer the engine takes.
    const k = chosen.length;
    if (v.distinct) {
      if (k === v.distinct) {
        const sorted = [...chosen].sort((a, b) => a - b);
        readBack(v, rank(sorted, v.steps[0].names.length), chosen.map((i) => v.steps[0].names[i]));
        return;
      }
    } else {
      const complete = v.paths.findIndex((path) => path.length === k && path.every((i, j) => i === chosen[j]));
      if (complete >= 0) {
        readBack(v, complete, chosen.map((i, j) => v.steps[j].names[i]));
        return;
      }
    }
    const open = new Set();
    if (v.distinct) {
      v.steps[k].names.forEach((_, i) => { if (!chosen.includes(i)) open.add(i); });
    } else {
      v.paths.forEach((path) => {
        if (path.length > k && chosen.every((i, j) => path[j] === i)) open.add(path[k]);
      });
    }
    const list = el("div", {class: "choices"});
    v.steps[k].names.forEach((name, index) => {
      if (!open.has(index)) return;
      const button = el("button", {class: "choice", type: "button", "data-index": String(index)}, name);
      button.addEventListener("click", () => step(v, [...chosen, index]));
      list.append(button);
    });
    const picked = chosen.map((i, j) => el("p", {class: "picked"}, v.steps[j].names[i]));
    draw("ask", el("h1", {}, v.title), ...facts(v), ...picked, el("p", {class: "step"}, v.steps[k].prompt), list);
  }

  function rank(sorted, n) {
    // The index of a set of names among every set of as many, in the order Python's itertools.combinations gives.
    let index = 0, found = -1;
    const walk = (start, prefix) => {
      if (found >= 0) return;
      if (prefix.length === sorted.length) {
        if (prefix.every((x, j) => x === sorted[j])) found = index;
        index += 1;
        return;
      }
      for (let i = start; i < n; i += 1) walk(i + 1, [...prefix, i]);
    };
    walk(0, []);
    return found;
  }

  function readBack(asked, index, names) {
    // The read-back is the phone's own: nothing crosses the network until the answer is confirmed.
    const yes = el("button", {class: "primary", id: "confirm", type: "button"}, text("confirm"));
    const no = el("button", {class: "primary", id: "change", type: "button"}, text("change"));
    yes.addEventListener("click", () => {
      pending = {call: asked.call, choice: index};
      draw("sent", el("p", {class: "dim"}, text("sent")));
    });
    no.addEventListener("click", render);
    const said = names.map((name) => el("p", {class: "answer"}, name));
    draw("confirm", el("h1", {}, text("read_back")), ...said, yes, no);
  }

  function received(event) {
    const frame = JSON.parse(event.data);
    const seen = JSON.stringify(frame.view);
    if (seen === shown) return;  // a sleeping phone's frame: its view again, nothing new to draw
    shown = seen;
    view = frame.view;
    pending = null;
    render();
  }

  function tick() {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    const said = JSON.stringify(pending || {});
    pending = null;
    socket.send(said + " ".repeat(Math.max(0, UP_FRAME - said.length)));
  }

  function connect() {
    if (final || (socket && socket.readyState <= WebSocket.OPEN)) return;
    clearTimeout(retry);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(scheme + "//" + location.host + "/ws/" + token);
    socket.addEventListener("open", () => { delay = 500; link.dataset.online = "yes"; awake(); });
    socket.addEventListener("message", received);
    socket.addEventListener("close", () => {
      link.dataset.online = "no";
      link.textContent = final ? "" : text("offline");  // a link that ended, taken or over: nothing comes back
      socket = null;
      if (!final) retry = setTimeout(connect, delay);
      delay = Math.min(delay * 2, 8000);
    });
  }

  async function awake() {
    // Keeps the screen on during the game where the browser allows it (a secure page only); the page stays dark.
    try {
      if ("wakeLock" in navigator && !lock && document.visibilityState === "visible") {
        lock = await navigator.wakeLock.request("screen");
        lock.addEventListener("release", () => { lock = null; });
      }
    } catch (error) { lock = null; }
  }

  function back() {
    if (document.visibilityState !== "visible") return;
    delay = 500;
    connect();
    awake();
  }

  document.addEventListener("visibilitychange", back);
  window.addEventListener("focus", back);
  window.addEventListener("online", back);
  window.addEventListener("pageshow", back);
  setInterval(tick, 1000);
  link.textContent = text("offline");
  connect();
})();
