// The Rulestone playground's page: plain JavaScript, no build step. It knows no game: the
// server sends the board as SVG (each cell a group with `data-cell`), the legal moves with the
// cells each names in order, and the declared options.
"use strict";

const $ = (s) => document.querySelector(s);
const SESSION_KEY = "rulestone-session";
const NS = "http://www.w3.org/2000/svg";

let st = null;          // the last state the server sent
let clicked = [];       // the cells picked so far towards a move
let gameId = null;      // the catalog id played, or null for an edited text
let playedSource = null; // the edited text played, when gameId is null
let busy = false;       // a request is on its way (the board takes no clicks)
let optionsKey = "";    // which options the controls show

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  };
  let answer;
  try {
    const r = await fetch(path, init);
    answer = await r.json();
  } catch (e) {
    throw { message: "the server did not answer: " + e };
  }
  if (answer.error) throw answer.error;
  return answer;
}

function showError(e) {
  const notes = e && e.notes && e.notes.length ? "\n" + e.notes.join("\n") : "";
  $("#error").textContent = e ? e.message + notes : "";
}

async function guarded(work) {
  if (busy) return;
  busy = true;
  document.body.classList.add("busy");
  try {
    showError(null);
    await work();
  } catch (e) {
    showError(e);
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
  afterRender();
}

// ---- loading games ----

function currentOptions() {
  const out = {};
  for (const el of document.querySelectorAll("#options [data-option]")) {
    out[el.dataset.option] = el.value;
  }
  return out;
}

async function newSession(req) {
  req.session = sessionStorage.getItem(SESSION_KEY) || "";
  const s = await api("/api/new", req);
  sessionStorage.setItem(SESSION_KEY, s.session);
  render(s);
}

async function openGame(id, options, moves) {
  gameId = id;
  playedSource = null;
  $("#game-select").value = id;
  const src = await api("/api/source?id=" + encodeURIComponent(id));
  $("#source").value = src.source;
  diagnoseSoon();
  await newSession({ game: id, options: options || {}, moves: moves || [] });
}

function restart() {
  const options = currentOptions();
  return gameId
    ? newSession({ game: gameId, options })
    : newSession({ source: playedSource, options });
}

// ---- drawing the state ----

function render(s) {
  st = s;
  clicked = [];
  aim = null;
  $("#board").innerHTML = s.svg;
  $("#board").classList.toggle("table", s.surface === "table");
  const log = $("#log");
  log.textContent = "";
  for (const line of s.log || []) {
    const li = document.createElement("li");
    li.textContent = line;
    log.appendChild(li);
  }
  renderOptions(s);
  renderOpponents(s);
  const moves = $("#moves");
  moves.textContent = "";
  for (const m of s.moves) {
    const li = document.createElement("li");
    li.textContent = m.chance ? "rolled " + m.text : m.text;
    if (m.chance) li.className = "chance";
    moves.appendChild(li);
  }
  moves.scrollTop = moves.scrollHeight;
  const status = $("#status");
  if (s.result) {
    status.textContent = "Game over: " + s.result;
    status.className = "over";
  } else {
    const shoots = s.table && s.table.shots.length;
    status.textContent = s.to_move_name + (shoots ? " to shoot: drag from a stone to aim, farther is faster" : " to move") +
      (s.legal_total > s.legal.length ? ` (${s.legal.length} of ${s.legal_total} moves listed)` : "");
    status.className = "";
  }
  showClicks();
  updateLink();
}

function renderOptions(s) {
  const key = (s.game || "edited") + JSON.stringify(s.options.map((o) => [o.name, o.kind]));
  const box = $("#options");
  if (key === optionsKey) {
    for (const o of s.options) {
      const el = box.querySelector(`[data-option="${CSS.escape(o.name)}"]`);
      if (el) el.value = o.value;
    }
    return;
  }
  optionsKey = key;
  box.textContent = "";
  for (const o of s.options) {
    const label = document.createElement("label");
    label.title = "accepts " + o.accepts;
    label.append(o.name + " ");
    let el;
    if (o.kind.type === "enum") {
      el = document.createElement("select");
      for (const v of o.kind.values) {
        const opt = document.createElement("option");
        opt.value = v;
        opt.textContent = v;
        el.appendChild(opt);
      }
    } else {
      el = document.createElement("input");
      el.type = "number";
      el.min = o.kind.min;
      el.max = o.kind.max;
      el.style.width = "5em";
    }
    el.dataset.option = o.name;
    el.name = "opt-" + o.name;
    el.value = o.value;
    el.addEventListener("change", () => guarded(restart));
    label.appendChild(el);
    box.appendChild(label);
  }
}

function renderOpponents(s) {
  const sel = $("#opponent");
  const keep = sel.value;
  const names = ["nobody"].concat(s.players);
  if (sel.options.length !== names.length || [...sel.options].some((o, i) => o.textContent !== names[i])) {
    sel.textContent = "";
    names.forEach((n, i) => {
      const opt = document.createElement("option");
      opt.value = i === 0 ? "" : String(i - 1);
      opt.textContent = n;
      sel.appendChild(opt);
    });
    sel.value = keep && Number(keep) < s.players.length ? keep : "";
  }
}

function updateLink() {
  if (!st) return;
  if (!gameId) {
    $("#share").value = "(an edited game has no link: save its text as a .game file)";
    return;
  }
  const parts = ["game=" + encodeURIComponent(gameId)];
  for (const [k, v] of Object.entries(currentOptions())) {
    parts.push("set." + encodeURIComponent(k) + "=" + encodeURIComponent(v));
  }
  const played = st.moves.filter((m) => !m.chance).map((m) => m.text);
  // A position reached by chance (dice, a table's deal and aim) is not carried by its moves.
  if (played.length && !st.moves.some((m) => m.chance) && st.surface !== "table") {
    parts.push("moves=" + encodeURIComponent(played.join(";")));
  }
  const hash = "#" + parts.join("&");
  history.replaceState(null, "", hash);
  $("#share").value = location.href;
}

// ---- moves by clicking ----

function startsWith(cells, prefix) {
  return prefix.length <= cells.length && prefix.every((c, i) => cells[i] === c);
}

function candidates(prefix) {
  return st ? st.legal.filter((m) => startsWith(m.cells, prefix)) : [];
}

function cellGroup(name) {
  return $("#board").querySelector(`[data-cell="${CSS.escape(name)}"]`);
}

function mark(name, cls) {
  const g = cellGroup(name);
  const svg = $("#board svg");
  if (!g || !svg) return;
  const b = g.getBBox();
  const c = document.createElementNS(NS, "circle");
  c.setAttribute("cx", b.x + b.width / 2);
  c.setAttribute("cy", b.y + b.height / 2);
  c.setAttribute("r", Math.max(0.12, Math.min(b.width, b.height) * 0.28));
  c.setAttribute("class", cls);
  c.setAttribute("data-mark", name);
  svg.appendChild(c);
}

// Highlights the cells that continue a legal move from the cells picked, and lists as buttons
// the moves the picked cells complete (and the moves that name no cell).
function showClicks() {
  for (const el of document.querySelectorAll("#board [data-mark]")) el.remove();
  const box = $("#choices");
  box.textContent = "";
  if (!st || st.result) return;
  const cands = candidates(clicked);
  const next = new Set();
  for (const m of cands) if (m.cells.length > clicked.length) next.add(m.cells[clicked.length]);
  for (const c of clicked) mark(c, "sel");
  for (const c of next) mark(c, "hl");
  const buttons = st.legal.filter((m) => m.cells.length === 0)
    .concat(clicked.length ? cands.filter((m) => m.cells.length === clicked.length) : []);
  const chooser = nextChooser(cands);
  if (chooser !== null) {
    const hint = document.createElement("span");
    hint.className = "hint";
    hint.textContent = `${st.players[chooser]} chooses the next part`;
    box.appendChild(hint);
  }
  if (clicked.length) {
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = "cancel " + clicked.join(" ");
    cancel.className = "cancel";
    cancel.addEventListener("click", () => { clicked = []; showClicks(); });
    box.appendChild(cancel);
  }
  for (const m of buttons.slice(0, 60)) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = m.text;
    b.dataset.move = m.text;
    b.addEventListener("click", () => playMove(m.text));
    box.appendChild(b);
  }
}

// The player who chooses the next part of the move under way, when it is not the mover (a
// part chosen by the opponent, as the parts of the legal moves say).
function nextChooser(cands) {
  if (!clicked.length || !cands.length) return null;
  let seen = 0;
  for (const p of cands[0].parts) {
    seen += p.cells.length;
    if (seen > clicked.length) return p.player !== st.to_move ? p.player : null;
  }
  return null;
}

function clickCell(name) {
  if (!st || st.result || busy || st.chance) return;
  let prefix = clicked.concat([name]);
  if (candidates(prefix).length === 0) prefix = [name];
  const cands = candidates(prefix);
  if (cands.length === 0) {
    showError({ message: `no legal move ${clicked.length ? "continues with" : "starts at"} ${name}` });
    clicked = [];
    showClicks();
    return;
  }
  showError(null);
  clicked = prefix;
  const complete = cands.filter((m) => m.cells.length === prefix.length);
  if (complete.length === 1 && cands.length === 1) {
    playMove(complete[0].text);
    return;
  }
  showClicks();
}

function playMove(text) {
  return guarded(async () => {
    const s = await api("/api/play", { session: st.session, move: text });
    await animateShot(s);
    render(s);
  });
}

// ---- table games: shots aimed by dragging, and animated ----

const FRAME_MS = 25;    // how long each position of a shot is shown
let aim = null;         // the drag under way: the stone, its centre, the aim line
let animated = 0;       // positions shown by the last animation (read by the browser test)

// The pointer's position in the picture's units (the table's, `y` down).
function svgPoint(ev) {
  const svg = $("#board svg");
  const p = svg.createSVGPoint();
  p.x = ev.clientX;
  p.y = ev.clientY;
  return p.matrixTransform(svg.getScreenCTM().inverse());
}

function stoneCentre(index) {
  const s = st.table.stones[index];
  return { x: s.x, y: st.table.width - s.y };
}

function startAim(ev) {
  if (!st || !st.table || busy || st.result) return;
  const g = ev.target.closest && ev.target.closest("[data-stone]");
  if (!g) return;
  const index = Number(g.dataset.index);
  const shots = st.table.shots.filter((s) => s.stone === index);
  if (!shots.length) {
    showError({ message: `${g.dataset.stone} cannot be shot now` });
    return;
  }
  ev.preventDefault();
  showError(null);
  const c = stoneCentre(index);
  const line = document.createElementNS(NS, "line");
  line.setAttribute("class", "aim");
  line.setAttribute("x1", c.x);
  line.setAttribute("y1", c.y);
  line.setAttribute("x2", c.x);
  line.setAttribute("y2", c.y);
  $("#board svg").appendChild(line);
  aim = { index, shots, c, line, to: c };
  $("#board").setPointerCapture && ev.pointerId !== undefined && $("#board").setPointerCapture(ev.pointerId);
}

// The angle (degrees, the table's `y` upwards) and the speed of a drag to `to`: the stone is
// shot towards where the drag ends, at a speed growing with its length up to the card's top.
function shotOf(a, to, maxSpeed) {
  const dx = to.x - a.c.x;
  const dy = a.c.y - to.y;
  const full = st.table.length * 0.4;
  const length = Math.hypot(dx, dy);
  const angle = ((Math.round(Math.atan2(dy, dx) * 180 / Math.PI) % 360) + 360) % 360;
  const speed = Math.max(0.1, Math.min(maxSpeed, maxSpeed * length / full));
  return { angle, speed: speed.toFixed(1), length };
}

function moveAim(ev) {
  if (!aim) return;
  aim.to = svgPoint(ev);
  aim.line.setAttribute("x2", aim.to.x);
  aim.line.setAttribute("y2", aim.to.y);
  const s = shotOf(aim, aim.to, aim.shots[0].max_speed);
  $("#status").textContent = `${aim.shots[0].name}: angle ${s.angle}°, speed ${s.speed}`;
}

function endAim(ev) {
  if (!aim) return;
  const a = aim;
  aim = null;
  a.line.remove();
  const to = svgPoint(ev);
  const reach = Math.hypot(to.x - a.c.x, to.y - a.c.y);
  if (reach < st.table.stones[a.index].radius) {
    render(st);
    return;
  }
  const texts = a.shots.map((s) => {
    const shot = shotOf(a, to, s.max_speed);
    return `${s.head} ${shot.angle}@${shot.speed}`;
  });
  if (texts.length === 1) {
    playMove(texts[0]);
    return;
  }
  // Several cards shoot this stone: the player picks one.
  const box = $("#choices");
  box.textContent = "";
  for (const t of texts) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = t;
    b.dataset.move = t;
    b.addEventListener("click", () => playMove(t));
    box.appendChild(b);
  }
}

// Moves every stone of the table shown along the positions the simulation went through, from
// where they were to where they rest (the caller then shows the new state).
async function animateShot(s) {
  const frames = s.table ? s.table.frames : [];
  if (frames.length < 2 || !st || st.surface !== "table") return;
  for (const el of $("#board").querySelectorAll(".path, .aim")) el.remove();
  const groups = [...$("#board").querySelectorAll("[data-stone]")];
  for (const f of frames) {
    for (const g of groups) {
      const p = f[Number(g.dataset.index)];
      if (!p) continue;
      g.setAttribute("transform", `translate(${p[0]} ${s.table.width - p[1]})`);
      g.removeAttribute("display");
    }
    await new Promise((r) => setTimeout(r, FRAME_MS));
  }
  animated = frames.length;
}

// ---- the computer's moves ----

function agentToMove() {
  const who = $("#opponent").value;
  return st && !st.result && who !== "" && Number(who) === st.to_move;
}

function agentMove() {
  return guarded(async () => {
    $("#status").textContent = st.to_move_name + " (" + $("#agent").value + ") is thinking…";
    const s = await api("/api/agent", {
      session: st.session,
      agent: $("#agent").value,
      strength: Number($("#strength").value),
    });
    await animateShot(s);
    render(s);
  });
}

function afterRender() {
  if (!busy && agentToMove() && !$("#error").textContent) {
    setTimeout(() => { if (agentToMove()) agentMove(); }, 50);
  }
}

function undo() {
  return guarded(async () => {
    let s = await api("/api/undo", { session: st.session });
    const who = $("#opponent").value;
    if (who !== "" && Number(who) === s.to_move && s.moves.length) {
      s = await api("/api/undo", { session: st.session });
    }
    render(s);
  });
}

// ---- records ----

// The game so far as a record (the format `rulestone replay` and `play`'s `load` read),
// downloaded as a file.
function saveRecord() {
  return guarded(async () => {
    const r = await api("/api/record", { session: st.session });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([r.record], { type: "text/plain" }));
    a.download = (gameId || "game").split("/").pop().replace(/\.game$/, "") + ".rec";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
}

// A saved record opened: its game, option values and moves (dice rolls included).
function loadRecord(file) {
  return guarded(async () => {
    await newSession({ record: await file.text() });
    gameId = st.game;
    playedSource = null;
    if (gameId) {
      $("#game-select").value = gameId;
      const src = await api("/api/source?id=" + encodeURIComponent(gameId));
      $("#source").value = src.source;
      diagnoseSoon();
    }
  });
}

// ---- the editor ----

let diagnoseTimer = null;
let diagnoseSeq = 0;

function diagnoseSoon() {
  clearTimeout(diagnoseTimer);
  diagnoseTimer = setTimeout(diagnose, 400);
}

async function diagnose() {
  const seq = ++diagnoseSeq;
  const list = $("#diagnostics");
  let found;
  try {
    found = (await api("/api/diagnose", { source: $("#source").value })).diagnostics;
  } catch (e) {
    found = [{ severity: "error", code: e.code, message: e.message, line: 1, column: 1 }];
  }
  if (seq !== diagnoseSeq) return;
  list.textContent = "";
  if (found.length === 0) {
    const li = document.createElement("li");
    li.className = "ok";
    li.textContent = "no problems";
    list.appendChild(li);
  }
  for (const d of found) {
    const li = document.createElement("li");
    li.className = d.severity;
    li.dataset.line = d.line;
    li.dataset.code = d.code || "";
    li.textContent = `line ${d.line}:${d.column} ${d.severity}${d.code ? "[" + d.code + "]" : ""}: ${d.message}`;
    li.addEventListener("click", () => selectLine(d.line));
    list.appendChild(li);
  }
}

function selectLine(line) {
  const ta = $("#source");
  const lines = ta.value.split("\n");
  let start = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
  ta.focus();
  ta.setSelectionRange(start, start + (lines[line - 1] || "").length);
}

function runEdited() {
  return guarded(async () => {
    gameId = null;
    playedSource = $("#source").value;
    optionsKey = "";
    await newSession({ source: playedSource, options: {} });
  });
}

// ---- the analysis tab ----

let job = null;         // the analysis running, if any
let jobTimer = null;

function showTab(name) {
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("on", b.dataset.tab === name);
  $("#playing").hidden = name !== "playing";
  $("#analysis").hidden = name !== "analysis";
}

function analysisRequest() {
  const req = {
    options: currentOptions(),
    games: Number($("#analysis-games").value),
    iterations: Number($("#analysis-iterations").value),
  };
  if (gameId) req.game = gameId; else req.source = playedSource;
  return req;
}

function showJob(j) {
  const bar = $("#analysis-progress");
  bar.max = Math.max(1, j.total);
  bar.value = j.done;
  const running = j.state === "running";
  $("#analysis-go").disabled = running;
  $("#analysis-cancel").disabled = !running;
  $("#analysis-text").textContent = running ? `${j.done} of ${j.total} games played`
    : j.state === "done" ? `done: ${j.done} of ${j.total} games played`
    : j.state === "cancelled" ? "cancelled" : "failed";
  if (j.error) $("#analysis-error").textContent = j.error;
  if (j.state === "done") {
    const frame = $("#analysis-report");
    frame.srcdoc = j.html;
    frame.hidden = false;
  }
}

async function pollJob() {
  if (!job) return;
  try {
    const j = await api("/api/analysis?job=" + encodeURIComponent(job));
    showJob(j);
    if (j.state !== "running") { job = null; return; }
  } catch (e) {
    $("#analysis-error").textContent = e.message;
    job = null;
    $("#analysis-go").disabled = false;
    $("#analysis-cancel").disabled = true;
    return;
  }
  jobTimer = setTimeout(pollJob, 300);
}

async function startAnalysis() {
  if (job) return;
  $("#analysis-error").textContent = "";
  $("#analysis-report").hidden = true;
  $("#analysis-text").textContent = "loading the game…";
  try {
    const j = await api("/api/analyze", analysisRequest());
    job = j.job;
    showJob(j);
    clearTimeout(jobTimer);
    jobTimer = setTimeout(pollJob, 300);
  } catch (e) {
    const notes = e.notes && e.notes.length ? "\n" + e.notes.join("\n") : "";
    $("#analysis-error").textContent = e.message + notes;
    $("#analysis-text").textContent = "";
  }
}

function cancelAnalysis() {
  if (job) api("/api/analysis/cancel", { job }).then(showJob, () => {});
}

// The page left: its analysis is stopped (the server also stops one no page asks for).
window.addEventListener("pagehide", () => {
  if (job) navigator.sendBeacon("/api/analysis/cancel", JSON.stringify({ job }));
});

// ---- start ----

function fromHash() {
  const out = { game: null, options: {}, moves: [] };
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const k = decodeURIComponent(part.slice(0, eq));
    const v = decodeURIComponent(part.slice(eq + 1));
    if (k === "game") out.game = v;
    else if (k === "moves") out.moves = v.split(";").map((m) => m.trim()).filter((m) => m);
    else if (k.startsWith("set.")) out.options[k.slice(4)] = v;
  }
  return out;
}

async function start() {
  const { games } = await api("/api/games");
  const sel = $("#game-select");
  for (const g of games) {
    const opt = document.createElement("option");
    opt.value = g.id;
    opt.textContent = g.origin === "dir" ? g.id.slice(4) : g.name;
    sel.appendChild(opt);
  }
  const linked = fromHash();
  const first = linked.game && games.some((g) => g.id === linked.game) ? linked.game : games[0] && games[0].id;
  if (first) await openGame(first, linked.options, linked.moves);
}

// The cell clicked: the highlighted cell nearest the click when one is close (an empty cell of
// an upper level is drawn small), else the cell whose group was hit.
function cellAt(ev) {
  const svg = $("#board svg");
  const hit = ev.target.closest && ev.target.closest("[data-cell]");
  if (!svg || !svg.getScreenCTM()) return hit ? hit.dataset.cell : null;
  const p = svg.createSVGPoint();
  p.x = ev.clientX;
  p.y = ev.clientY;
  const at = p.matrixTransform(svg.getScreenCTM().inverse());
  let best = null;
  let bestDistance = 0.5;
  for (const m of svg.querySelectorAll("circle.hl")) {
    const d = Math.hypot(m.cx.baseVal.value - at.x, m.cy.baseVal.value - at.y);
    if (d < bestDistance) {
      best = m.getAttribute("data-mark");
      bestDistance = d;
    }
  }
  return best || (hit ? hit.dataset.cell : null);
}

$("#board").addEventListener("pointerdown", startAim);
$("#board").addEventListener("pointermove", moveAim);
$("#board").addEventListener("pointerup", endAim);
$("#board").addEventListener("click", (ev) => {
  const cell = cellAt(ev);
  if (cell) clickCell(cell);
});
$("#game-select").addEventListener("change", (ev) => guarded(() => { optionsKey = ""; return openGame(ev.target.value); }));
$("#restart").addEventListener("click", () => guarded(restart));
$("#undo").addEventListener("click", undo);
$("#save-record").addEventListener("click", saveRecord);
$("#load-record").addEventListener("change", (e) => {
  const file = e.target.files[0];
  e.target.value = "";
  if (file) loadRecord(file);
});
$("#agent-move").addEventListener("click", agentMove);
$("#opponent").addEventListener("change", afterRender);
$("#move-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const text = $("#move-text").value.trim();
  if (text) playMove(text).then(() => { if (!$("#error").textContent) $("#move-text").value = ""; });
});
$("#source").addEventListener("input", diagnoseSoon);
$("#run").addEventListener("click", runEdited);
for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => showTab(b.dataset.tab));
$("#analysis-form").addEventListener("submit", (ev) => { ev.preventDefault(); startAnalysis(); });
$("#analysis-cancel").addEventListener("click", cancelAnalysis);
guarded(start);
