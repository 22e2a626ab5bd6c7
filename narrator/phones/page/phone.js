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
      const face = el("p", {class: "card", id: "card"});
      const nodes = [el("p", {class: "dim"}, text("sleep")), face];
      if (v.card) {
        const hold = el("button", {class: "hold", id: "hold", type: "button"}, text("show_card"));
        const show = (on) => { face.textContent = on ? v.card : ""; };
        hold.addEventListener("pointerdown", () => show(true));
        ["pointerup", "pointerleave", "pointercancel", "blur"].forEach((e) => hold.addEventListener(e, () => show(false)));
        nodes.push(hold);
      } else {
        nodes.push(el("p", {class: "dim"}, text("no_card")));
      }
      draw("sleep", ...nodes);
    } else if (v.kind === "ask") {
      const list = el("div", {class: "choices"});
      v.choices.forEach((name, index) => {
        const button = el("button", {class: "choice", type: "button", "data-index": String(index)}, name);
        button.addEventListener("click", () => readBack(v, index));
        list.append(button);
      });
      draw("ask", el("h1", {}, v.title), list);
    } else if (v.kind === "told") {
      draw("told", el("h1", {}, v.title), el("p", {}, v.text || ""));
    } else if (v.kind === "taken" || v.kind === "stopped" || v.kind === "over") {
      final = v.kind !== "stopped";  // a stopped game may go on (resume): the page keeps looking for it
      draw(v.kind, el("p", {class: "dim"}, text(v.kind)));
    }
  }

  function readBack(asked, index) {
    // The read-back is the phone's own: nothing crosses the network until the answer is confirmed.
    const yes = el("button", {class: "primary", id: "confirm", type: "button"}, text("confirm"));
    const no = el("button", {class: "primary", id: "change", type: "button"}, text("change"));
    yes.addEventListener("click", () => {
      pending = {call: asked.call, choice: index};
      draw("sent", el("p", {class: "dim"}, text("sent")));
    });
    no.addEventListener("click", render);
    draw("confirm", el("h1", {}, text("read_back")), el("p", {class: "answer"}, asked.choices[index]), yes, no);
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
      link.textContent = text("offline");
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
