// millbase explorer: the board, the moves coloured by their values, the best line.
// Everything it knows comes from the API beside it: /api/info (the board), /api/moves (the
// position and its legal moves, with the position each leads to), /api/probe (values),
// /api/pv (the best line). No rules are coded here: the board's lines (diagonals too) come
// from /api/info, marked points and the removals pending for each side from /api/moves, and a
// move removes the stones its `removes` lists. Where a table is missing, /api/probe's 404
// names the command that makes it with what that costs, and carries the engine's search
// evaluation of each move, which the page shows labelled as search, not tables; under rules
// that tables do not follow, that search is all there is, and the page says so.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 100;
const MARGIN = 84;

const S = {
  info: null,       // /api/info
  fen: '',          // the position shown, as given
  pos: null,        // /api/moves of it
  probe: null,      // /api/probe of it, or null
  problem: null,    // the probe's error body (with .cost and .search for a missing table), or null
  pv: null,         // /api/pv of it, or null
  line: [],         // history: [{fen, move}], move = the move that led there (or null)
  at: -1,           // index of the position shown in `line`
  flipped: false,
  sel: null,        // a move being entered: {from} or {from, to, removes} (waiting for removals)
  hover: null,      // a move shown on the board
  seq: 0,           // answers to older loads are dropped
};

const $ = (id) => document.getElementById(id);
const other = (c) => (c === 'white' ? 'black' : 'white');
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

async function getJson(path, params) {
  const q = new URLSearchParams(params).toString();
  const r = await fetch(q ? `${path}?${q}` : path, { cache: 'no-store' });
  let body;
  try {
    body = await r.json();
  } catch (e) {
    body = { error: `the server answered ${r.status} without JSON` };
  }
  return { status: r.status, body };
}

// ---- values in words ----------------------------------------------------------------

function ruleN() {
  return S.info ? S.info.rule.n : 0;
}

/** "Win in 7 plies", "Win, DTR 7", "Cursed win", ... for a value object of the API. */
function valueWords(v, long) {
  const d = ruleN() > 0 ? v.dtr : v.plies;
  switch (v.value) {
    case 'win':
    case 'loss': {
      const word = v.value === 'win' ? 'Win' : 'Loss';
      if (d === null || d === undefined) return word;
      if (ruleN() > 0) return `${word}, DTR ${d}`;
      return long ? `${word} in ${d} ${d === 1 ? 'ply' : 'plies'}` : `${word} in ${d}`;
    }
    case 'cursed-win':
      return long ? 'Cursed win (a draw by the N-move rule)' : 'Cursed win';
    case 'blessed-loss':
      return long ? 'Blessed loss (a draw by the N-move rule)' : 'Blessed loss';
    default:
      return 'Draw';
  }
}

// ---- loading positions ----------------------------------------------------------------

/** Show `fen`. `how`: 'push' (a new position after the current one), 'stay' (undo/redo). */
async function load(fen, how, move) {
  const seq = ++S.seq;
  document.body.dataset.status = 'loading';
  const moves = await getJson('/api/moves', { fen });
  if (seq !== S.seq) return false;
  if (moves.status !== 200) {
    fenError(moves.body.error || `error ${moves.status}`);
    document.body.dataset.status = 'ready';
    return false;
  }
  fenError(null);
  if (how === 'push') {
    S.line = S.line.slice(0, S.at + 1);
    S.line.push({ fen, move: move || null });
    S.at = S.line.length - 1;
  }
  S.fen = fen;
  S.pos = moves.body;
  S.probe = null;
  S.problem = null;
  S.pv = null;
  S.sel = null;
  S.hover = null;
  $('fen').value = fen;
  writeUrl();
  render();
  const [probe, pv] = await Promise.all([
    getJson('/api/probe', { fen }),
    getJson('/api/pv', { fen }),
  ]);
  if (seq !== S.seq) return true;
  if (probe.status === 200) S.probe = probe.body;
  else S.problem = probe.body;
  if (pv.status === 200) S.pv = pv.body;
  render();
  document.body.dataset.fen = fen;
  document.body.dataset.status = 'ready';
  return true;
}

function writeUrl() {
  const params = new URLSearchParams({ fen: S.fen });
  if (S.flipped) params.set('flip', '1');
  history.replaceState(null, '', `${location.pathname}?${params}`);
}

function play(m) {
  notice('');
  return load(m.fen, 'push', m);
}

function undo() {
  if (S.at > 0) {
    S.at -= 1;
    load(S.line[S.at].fen, 'stay');
  }
}

function redo() {
  if (S.at < S.line.length - 1) {
    S.at += 1;
    load(S.line[S.at].fen, 'stay');
  }
}

// ---- messages -------------------------------------------------------------------------

let noticeTimer = null;

function notice(text, kind) {
  const n = $('notice');
  n.textContent = text;
  n.className = kind === 'info' ? 'muted' : '';
  clearTimeout(noticeTimer);
  if (text) noticeTimer = setTimeout(() => { n.textContent = ''; }, 6000);
}

function fenError(text) {
  const e = $('fen-error');
  e.hidden = !text;
  e.textContent = text || '';
}

// ---- playing by clicking --------------------------------------------------------------

function stoneAt(p) {
  if (S.pos.stones.white.includes(p)) return 'white';
  if (S.pos.stones.black.includes(p)) return 'black';
  return null;
}

function clickPoint(p) {
  const pos = S.pos;
  if (!pos) return;
  const me = pos.to_move;
  const opp = other(me);
  const moves = pos.moves;
  const owner = stoneAt(p);
  if (moves.length === 0) {
    notice(pos.outcome ? `The game is over: ${pos.outcome.reason}.` : 'No legal move.');
    return;
  }
  if (pos.pending_removal) {
    const m = moves.find((x) => x.remove === p);
    const whose = pos.removals[me] < 0 ? `one of its own (${me})` : `a ${opp}`;
    if (m) play(m);
    else notice(`${cap(me)} must remove ${whose} stone: click one of the circled stones.`);
    return;
  }
  if (S.sel && S.sel.to) {
    const chosen = S.sel.removes;
    const open = removalCandidates(S.sel);
    if (open.includes(p)) {
      const now = [...chosen, p];
      const done = moves.find((x) => x.from === S.sel.from && x.to === S.sel.to
        && sameSet(x.removes, now));
      if (done) {
        play(done);
      } else {
        S.sel = { ...S.sel, removes: now };
        notice(`Another mill: click the next ${opp} stone to remove.`, 'info');
        drawBoard();
      }
    } else if (p === S.sel.to || p === S.sel.from) {
      S.sel = null;
      notice('Move cancelled.', 'info');
      drawBoard();
    } else {
      notice(`This move closes a mill: click the ${opp} stone to remove (circled; Esc cancels).`);
    }
    return;
  }
  if (pos.marks.includes(p)) {
    notice(`${p} is marked: no stone may be placed there while stones are in hand.`);
    return;
  }
  if (owner === me) {
    if (S.sel && S.sel.from === p) {
      S.sel = null;
      drawBoard();
    } else if (moves.some((x) => x.from === p)) {
      S.sel = { from: p };
      notice('');
      drawBoard();
    } else if (!moves.some((x) => x.from !== null)) {
      notice(`${cap(me)} has stones in hand: click an empty point to place one.`);
    } else {
      notice(`The ${me} stone on ${p} has no legal move.`);
    }
    return;
  }
  if (owner === opp) {
    notice(`That is a ${opp} stone, and ${me} is to move.`);
    return;
  }
  const from = S.sel ? S.sel.from : null;
  const cands = moves.filter((x) => x.from === from && x.to === p);
  if (cands.length === 0) {
    if (from) notice(`${from}-${p} is not a legal move: a stone slides along a line to the next point${S.info.flying ? ' (it flies anywhere only when its side has three stones)' : ''}.`);
    else if (moves.some((x) => x.from === null && x.to !== null)) notice(`${p}: no legal move there.`);
    else notice(`Click one of ${me}'s stones first, then the point it goes to.`);
    return;
  }
  const plain = cands.find((x) => x.remove === null);
  if (plain) {
    play(plain);
    return;
  }
  S.sel = { from, to: p, removes: [] };
  const most = Math.max(...cands.map((x) => x.removes.length));
  notice(most > 1 ? `${most} mills! Click the ${opp} stones to remove, one after the other.`
    : `Mill! Click the ${opp} stone to remove.`, 'info');
  drawBoard();
}

/** Do two lists hold the same points? */
function sameSet(a, b) {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** The stones that may be removed next by the move being entered (`sel` with a `to`). */
function removalCandidates(sel) {
  const out = new Set();
  for (const m of S.pos.moves) {
    if (m.from !== sel.from || m.to !== sel.to) continue;
    if (!sel.removes.every((r) => m.removes.includes(r))) continue;
    for (const r of m.removes) if (!sel.removes.includes(r)) out.add(r);
  }
  return [...out];
}

// ---- drawing --------------------------------------------------------------------------

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function xy(name) {
  const p = S.info.points.get(name);
  const n = S.info.board.size - 1;
  const x = S.flipped ? n - p.x : p.x;
  const y = S.flipped ? p.y : n - p.y;
  return [MARGIN + x * CELL, MARGIN + y * CELL];
}

/** Value class of the best move from `from` (null: a placement) to `to`. */
function targetClass(from, to) {
  const ms = S.pos.moves.filter((m) => m.from === from && m.to === to);
  let best = null;
  for (const m of ms) {
    const v = moveValue(m.move);
    if (v && (!best || rank(v) > rank(best))) best = v;
  }
  return best ? best.value : 'unknown';
}

function rank(v) {
  const d = (ruleN() > 0 ? v.dtr : v.plies) || 0;
  switch (v.value) {
    case 'win': return 100000 - d;
    case 'cursed-win': return 2;
    case 'draw': return 0;
    case 'blessed-loss': return -2;
    default: return -100000 + d;
  }
}

/** The table value of a move; without tables, the value the search proved (or null). */
function moveValue(text) {
  if (S.probe) return S.probe.moves.find((m) => m.move === text) || null;
  const row = searchRows().find((m) => m.move === text);
  return row && row.value ? row : null;
}

/** The search's evaluation of the moves where a table is missing, best first (or []). */
function searchRows() {
  return S.problem && S.problem.search ? S.problem.search.moves : [];
}

/** A search evaluation in words: a proven value, or the score in stones ("+0.19"). */
function searchWords(r) {
  if (r.value) return valueWords(r, false);
  if (r.score === null || r.score === undefined) return '?';
  const stones = (r.score / 100).toFixed(2);
  return r.score > 0 ? `+${stones}` : stones;
}

const COLORS = {
  win: '#1b7f3b', 'cursed-win': '#6a9f2a', draw: '#6b6b6b',
  'blessed-loss': '#c26a2e', loss: '#c0282d', unknown: '#2160c4',
};

function drawBoard() {
  const svg = $('board');
  const n = S.info.board.size - 1;
  const size = 2 * MARGIN + n * CELL;
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.replaceChildren();
  el('rect', { class: 'bg', x: 0, y: 0, width: size, height: size, rx: 18 }, svg);
  for (const [a, b] of S.info.board.lines) {
    const [x1, y1] = xy(a);
    const [x2, y2] = xy(b);
    const diagonal = x1 !== x2 && y1 !== y2;
    el('line', { class: diagonal ? 'line diagonal' : 'line', x1, y1, x2, y2, 'data-line': `${a}-${b}` }, svg);
  }
  const cols = new Map();
  const rows = new Map();
  for (const p of S.info.board.points) {
    const [x, y] = xy(p.name);
    el('circle', { class: 'dot', cx: x, cy: y, r: 9 }, svg);
    cols.set(p.name[0], x);
    rows.set(p.name.slice(1), y);
  }
  for (const [c, x] of cols) {
    const t = el('text', { class: 'coord', x, y: size - 22 }, svg);
    t.textContent = c;
  }
  for (const [r, y] of rows) {
    const t = el('text', { class: 'coord', x: 22, y }, svg);
    t.textContent = r;
  }
  if (!S.pos) return;

  // Marked points: a cross where no stone may be placed.
  for (const p of S.pos.marks) {
    const [x, y] = xy(p);
    const g = el('g', { class: 'mark', 'data-mark': p }, svg);
    el('line', { x1: x - 26, y1: y - 26, x2: x + 26, y2: y + 26 }, g);
    el('line', { x1: x - 26, y1: y + 26, x2: x + 26, y2: y - 26 }, g);
  }
  const entry = S.line[S.at];
  const last = entry && entry.fen === S.fen ? entry.move : null;
  if (last) {
    for (const p of [last.from, last.to]) {
      if (!p) continue;
      const [x, y] = xy(p);
      el('circle', { class: 'last', cx: x, cy: y, r: 40 }, svg);
    }
  }
  const sel = S.sel;
  const gone = sel && sel.to ? sel.from : null;
  for (const color of ['white', 'black']) {
    for (const p of S.pos.stones[color]) {
      const [x, y] = xy(p);
      el('circle', { class: `stone ${color}${p === gone ? ' gone' : ''}`, cx: x, cy: y, r: 34, 'data-stone': p }, svg);
    }
  }
  const me = S.pos.to_move;
  if (sel && sel.to) {
    const [x, y] = xy(sel.to);
    el('circle', { class: `stone ${me} ghost`, cx: x, cy: y, r: 34 }, svg);
  }
  // The stones that may be removed now.
  let removable = [];
  if (S.pos.pending_removal) removable = S.pos.moves.map((m) => m.remove);
  else if (sel && sel.to) {
    removable = removalCandidates(sel);
    for (const p of sel.removes) {
      const [x, y] = xy(p);
      el('line', { class: 'cross', x1: x - 24, y1: y - 24, x2: x + 24, y2: y + 24 }, svg);
      el('line', { class: 'cross', x1: x - 24, y1: y + 24, x2: x + 24, y2: y - 24 }, svg);
    }
  }
  for (const p of removable) {
    const [x, y] = xy(p);
    el('circle', { class: 'removable', cx: x, cy: y, r: 44 }, svg);
  }
  if (sel && !sel.to) {
    const [x, y] = xy(sel.from);
    el('circle', { class: 'ring', cx: x, cy: y, r: 42 }, svg);
    const targets = new Set(S.pos.moves.filter((m) => m.from === sel.from).map((m) => m.to));
    for (const t of targets) {
      const [tx, ty] = xy(t);
      el('circle', { class: 'target', cx: tx, cy: ty, r: 17, fill: COLORS[targetClass(sel.from, t)] }, svg);
    }
  }
  if (S.hover) drawMove(svg, S.hover, me);
  // Click targets on top of everything.
  for (const p of S.info.board.points) {
    const [x, y] = xy(p.name);
    const marked = S.pos.marks.includes(p.name);
    const hit = el('circle', { class: marked ? 'hit marked' : 'hit', cx: x, cy: y, r: 46, 'data-point': p.name }, svg);
    const t = el('title', {}, hit);
    t.textContent = marked ? `${p.name} (marked)` : p.name;
    hit.addEventListener('click', () => clickPoint(p.name));
  }
}

function drawMove(svg, m, me) {
  if (m.from && m.to) {
    const [x1, y1] = xy(m.from);
    const [x2, y2] = xy(m.to);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
    const [ex, ey] = [x2 - ux * 30, y2 - uy * 30];
    el('line', { class: 'arrow', x1: x1 + ux * 20, y1: y1 + uy * 20, x2: ex - ux * 14, y2: ey - uy * 14 }, svg);
    const pts = [[ex + ux * 6, ey + uy * 6], [ex - ux * 26 - uy * 20, ey - uy * 26 + ux * 20], [ex - ux * 26 + uy * 20, ey - uy * 26 - ux * 20]];
    el('polygon', { class: 'arrowhead', points: pts.map((p) => p.join(',')).join(' ') }, svg);
  } else if (m.to) {
    const [x, y] = xy(m.to);
    el('circle', { class: `stone ${me} ghost`, cx: x, cy: y, r: 34 }, svg);
  }
  for (const r of m.removes || (m.remove ? [m.remove] : [])) {
    const [x, y] = xy(r);
    el('line', { class: 'cross', x1: x - 24, y1: y - 24, x2: x + 24, y2: y + 24 }, svg);
    el('line', { class: 'cross', x1: x - 24, y1: y + 24, x2: x + 24, y2: y - 24 }, svg);
  }
}

function drawHands() {
  const pos = S.pos;
  const [top, bottom] = S.flipped ? ['white', 'black'] : ['black', 'white'];
  for (const [id, color] of [['hand-top', top], ['hand-bottom', bottom]]) {
    const h = $(id);
    h.replaceChildren();
    h.classList.toggle('to-move', pos.to_move === color);
    const label = document.createElement('span');
    const inHand = pos.in_hand[color];
    label.textContent = `${cap(color)}: ${pos.stones[color].length} on the board, ${inHand} in hand`;
    const k = pos.removals[color];
    if (k !== 0) label.textContent += `, ${removalWords(k, color)} to remove`;
    h.appendChild(label);
    for (let i = 0; i < inHand; i += 1) {
      const pip = document.createElement('span');
      pip.className = `pip ${color}`;
      h.appendChild(pip);
    }
  }
}

/** "2 black stones", "1 own stone" for a side's pending removal count `k` (negative: own). */
function removalWords(k, color) {
  const n = Math.abs(k);
  const whose = k < 0 ? 'own' : other(color);
  return `${n} ${whose} stone${n === 1 ? '' : 's'}`;
}

function drawStatus() {
  const pos = S.pos;
  const st = $('status');
  st.replaceChildren();
  const pip = document.createElement('span');
  pip.className = `pip ${pos.to_move}`;
  st.appendChild(pip);
  const text = document.createElement('span');
  const me = pos.to_move;
  const mine = pos.removals[me];
  const standard = mine === 1 && pos.removals[other(me)] === 0;
  let words = `${cap(me)} to ${pos.pending_removal ? 'remove a stone' : 'move'}`;
  if (pos.pending_removal && !standard) words = `${cap(me)} to remove ${removalWords(mine, me)}`;
  const then = pos.removals[other(me)];
  if (then !== 0) words += `, then ${other(me)} ${removalWords(then, other(me))}`;
  if (pos.marks.length > 0) words += ` · marked: ${pos.marks.join(' ')}`;
  words += ` · move ${pos.full_move} · ${pos.phase} phase`;
  // The N in force here: the endgame N while a side has three stones on the board.
  if (ruleN() > 0) words += ` · counter ${pos.rule.counter} of ${pos.rule.n}`;
  if (pos.outcome) {
    const w = pos.outcome.winner;
    words = `Game over: ${pos.outcome.reason}${w ? ` — ${w} wins` : ' — a draw'}`;
  }
  text.textContent = words;
  st.appendChild(text);

  const v = $('value');
  v.replaceChildren();
  v.className = '';
  delete v.dataset.plies;
  delete v.dataset.dtr;
  delete v.dataset.source;
  v.dataset.value = '';
  if (S.probe) {
    const p = S.probe;
    v.className = p.value;
    v.dataset.value = p.value;
    v.dataset.source = 'tables';
    if (p.plies !== null) v.dataset.plies = p.plies;
    if (p.dtr !== null) v.dataset.dtr = p.dtr;
    v.append(`${valueWords(p, true)} `);
    const detail = document.createElement('span');
    detail.className = 'detail';
    const who = `for ${pos.to_move}`;
    detail.textContent = ruleN() > 0 ? `${who} (${p.rule.n}-move rule, counter ${p.rule.counter})` : who;
    v.appendChild(detail);
  } else if (searchRows().length > 0) {
    // No table: the search's best move, labelled as such.
    const best = searchRows()[0];
    v.className = best.value || 'unknown';
    v.dataset.source = 'search';
    v.append(`${searchWords(best)} `);
    const detail = document.createElement('span');
    detail.className = 'detail';
    detail.textContent = `for ${pos.to_move} after ${best.move} · search, not tables`;
    v.appendChild(detail);
  } else if (!S.problem) {
    v.textContent = '…';
  }
  const pr = $('problem');
  pr.hidden = !S.problem;
  pr.replaceChildren();
  const unsupported = S.problem && S.problem.unsupported;
  pr.classList.toggle('info', Boolean(unsupported));
  if (unsupported) {
    // Not an error: tables do not follow these rules, and the search is what there is.
    const msg = document.createElement('div');
    msg.dataset.unsupported = unsupported.join(' ');
    const which = S.info.tables.supported ? 'Tables of the placing phase do' : 'Tables do';
    msg.textContent = `${which} not follow these rules yet (${unsupported.join(', ')}): every move is evaluated by the engine's search.`;
    pr.appendChild(msg);
  } else if (S.problem) {
    const msg = document.createElement('div');
    msg.dataset.sector = S.problem.sector || '';
    msg.textContent = S.problem.sector
      ? `No table for sector ${S.problem.sector} in ${S.info.dir}. Make it with:`
      : S.problem.error;
    pr.appendChild(msg);
    if (S.problem.command) {
      const code = document.createElement('code');
      code.textContent = S.problem.command;
      pr.appendChild(code);
    }
    if (S.problem.cost) {
      const cost = document.createElement('div');
      cost.id = 'cost';
      cost.className = 'cost';
      cost.textContent = `To solve: ${S.problem.cost.text}.`;
      pr.appendChild(cost);
    }
  }
}

function drawMoves() {
  const list = $('moves');
  list.replaceChildren();
  const byText = new Map(S.pos.moves.map((m) => [m.move, m]));
  const search = !S.probe && searchRows().length > 0;
  const label = $('moves-source');
  label.hidden = !search;
  if (search) {
    const ms = S.problem.search.budget_ms;
    label.textContent = `Search, not tables: the engine's evaluation of each move (about ${ms} ms of alpha-beta search in all, reading the tables where they are present), in stones for ${S.pos.to_move}; only wins and losses it proves are certain.`;
  }
  let rows = S.pos.moves.map((m) => ({ move: m.move, value: null }));
  if (S.probe) rows = S.probe.moves;
  else if (search) rows = searchRows();
  if (rows.length === 0) {
    const li = document.createElement('li');
    li.className = 'empty';
    li.textContent = S.pos.outcome ? 'None: the game is over.' : 'None.';
    list.appendChild(li);
    return;
  }
  for (const r of rows) {
    const m = byText.get(r.move);
    if (!m) continue;
    const li = document.createElement('li');
    li.tabIndex = 0;
    li.className = r.value || 'unknown';
    li.dataset.move = r.move;
    if (r.value) {
      li.dataset.value = r.value;
      if (r.plies !== null && r.plies !== undefined) li.dataset.plies = r.plies;
      if (r.dtr !== null && r.dtr !== undefined) li.dataset.dtr = r.dtr;
    }
    const mv = document.createElement('span');
    mv.className = 'mv';
    mv.textContent = r.move;
    const val = document.createElement('span');
    val.className = `val ${r.value || ''}`;
    if (search) {
      li.dataset.source = 'search';
      if (r.score !== null) li.dataset.score = r.score;
      li.title = `search depth ${r.depth}, not tables`;
      val.classList.add('search');
      val.textContent = searchWords(r);
    } else {
      val.textContent = r.value ? valueWords(r, false) : '?';
    }
    li.append(mv, val);
    li.addEventListener('click', () => play(m));
    li.addEventListener('keydown', (e) => { if (e.key === 'Enter') play(m); });
    li.addEventListener('mouseenter', () => { S.hover = m; drawBoard(); });
    li.addEventListener('focus', () => { S.hover = m; drawBoard(); });
    li.addEventListener('mouseleave', () => { S.hover = null; drawBoard(); });
    li.addEventListener('blur', () => { S.hover = null; drawBoard(); });
    list.appendChild(li);
  }
}

function drawPv() {
  const box = $('pv');
  box.replaceChildren();
  if (!S.pv) {
    box.textContent = S.problem ? '—' : '…';
    return;
  }
  if (S.pv.line.length === 0) {
    box.textContent = S.pos.outcome ? 'The game is over.' : 'No move.';
    return;
  }
  let color = S.pos.to_move;
  let num = S.pos.full_move;
  const byFen = S.pv.fens;
  S.pv.line.forEach((text, i) => {
    if (color === 'white' || i === 0) {
      const n = document.createElement('span');
      n.className = 'num';
      n.textContent = color === 'white' ? `${num}.` : `${num}…`;
      box.append(n, ' ');
    }
    const a = document.createElement('a');
    a.href = `?${new URLSearchParams({ fen: byFen[i] })}`;
    a.textContent = text;
    a.dataset.ply = String(i + 1);
    a.addEventListener('click', (e) => {
      e.preventDefault();
      playLine(i + 1);
    });
    box.append(a, ' ');
    if (color === 'black') num += 1;
    color = other(color);
  });
}

/** Play the first `k` moves of the best line (each one can be undone). */
function playLine(k) {
  const pv = S.pv;
  const byText = new Map(S.pos.moves.map((m) => [m.move, m]));
  S.line = S.line.slice(0, S.at + 1);
  for (let i = 0; i < k; i += 1) {
    const first = i === 0 ? byText.get(pv.line[0]) : null;
    S.line.push({ fen: pv.fens[i], move: first || moveShape(pv.line[i]) });
  }
  S.at = S.line.length - 1;
  load(pv.fens[k - 1], 'stay');
}

/** from/to/removes of a move written in Sanmill notation (for marking the last move). */
function moveShape(text) {
  const m = /^(?:([a-g]\d)-)?([a-g]\d)?((?:x[a-g]\d)*)$/.exec(text);
  if (!m) return null;
  const removes = m[3] ? m[3].split('x').slice(1) : [];
  return { from: m[1] || null, to: m[2] || null, remove: removes[0] || null, removes };
}

function render() {
  if (!S.pos) return;
  drawBoard();
  drawHands();
  drawStatus();
  drawMoves();
  drawPv();
  $('undo').disabled = S.at <= 0;
  $('redo').disabled = S.at >= S.line.length - 1;
}

// ---- start ----------------------------------------------------------------------------

async function copyFen() {
  const text = S.fen;
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    const f = $('fen');
    f.value = text;
    f.select();
    document.execCommand('copy');
  }
  notice('Position copied.', 'info');
}

async function main() {
  const info = await getJson('/api/info', {});
  if (info.status !== 200) {
    notice(`Cannot read the explorer's settings: ${info.body.error}`);
    return;
  }
  S.info = info.body;
  S.info.points = new Map(S.info.board.points.map((p) => [p.name, p]));
  const endgame = S.info.rule.endgame_n > 0
    ? ` (${S.info.rule.endgame_n} while a side has three stones)` : '';
  const rule = S.info.rule.n > 0 ? `${S.info.rule.n}-move rule${endgame}` : 'no N-move rule';
  const placing = S.info.tables.placing;
  const tables = !S.info.tables.supported
    ? `no tables for these rules (${S.info.tables.unsupported.join(', ')}): search only`
    : placing.supported ? `tables in ${S.info.dir}`
      : `tables in ${S.info.dir} for the moving phase (placing: search only, ${placing.unsupported.join(', ')})`;
  $('tables').textContent = `${S.info.label} · ${tables} · ${rule}`;
  const params = new URLSearchParams(location.search);
  S.flipped = params.get('flip') === '1';
  drawBoard();

  $('undo').addEventListener('click', undo);
  $('redo').addEventListener('click', redo);
  $('flip').addEventListener('click', () => { S.flipped = !S.flipped; writeUrl(); render(); });
  $('start').addEventListener('click', () => load(S.info.start, 'push'));
  $('copy').addEventListener('click', copyFen);
  $('fen-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const fen = $('fen').value.trim();
    if (fen) load(fen, 'push');
    else fenError('Paste a position string first (or type start).');
  });
  document.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === 'Escape' && S.sel) { S.sel = null; notice(''); drawBoard(); }
    else if (e.key === 'ArrowLeft') undo();
    else if (e.key === 'ArrowRight') redo();
    else if (e.key === 'f') $('flip').click();
  });

  const wanted = params.get('fen');
  if (wanted && !(await load(wanted, 'push'))) {
    const why = $('fen-error').textContent;
    await load(S.info.start, 'push');
    $('fen').value = wanted;
    fenError(`The position in the link is not valid: ${why}`);
  } else if (!wanted) {
    await load(S.info.start, 'push');
  }
}

main();
