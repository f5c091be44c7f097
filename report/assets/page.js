// The page of a Hive Arbiter report or live match. Everything it shows was computed by the
// arbiter (package report): this script only draws the data, with uPlot for the charts and
// SVG for the boards.
(function () {
  'use strict';

  const PIECES = ['wQ', 'wS1', 'wS2', 'wB1', 'wB2', 'wG1', 'wG2', 'wG3', 'wA1', 'wA2', 'wA3', 'wM', 'wL', 'wP',
    'bQ', 'bS1', 'bS2', 'bB1', 'bB2', 'bG1', 'bG2', 'bG3', 'bA1', 'bA2', 'bA3', 'bM', 'bL', 'bP'];
  const BUG_COLOURS = { Q: '#e8a900', S: '#9c6b30', B: '#7a4fd6', G: '#2f9e44', A: '#1971c2', M: '#868e96', L: '#e03131', P: '#0ca678' };
  const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef';
  const DELTA_WIDTH = 3, ON_TOP = 6;
  // The axial steps of the six directions, clockwise from north-west, as package rules has them.
  const STEPS = [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]];
  const ENGINE_COLOURS = ['#1971c2', '#e8590c', '#2f9e44', '#c2255c', '#6741d9', '#0c8599', '#5c940d', '#d6336c'];
  const PAGE_ROWS = 100;
  const SVG = 'http://www.w3.org/2000/svg';

  const state = { data: null, charts: {}, running: new Map(), filter: '', page: 0, errors: [] };
  window.hiveReport = state;
  window.addEventListener('error', e => state.errors.push(String(e.message)));

  // el builds an element: el('div', {class: 'x'}, child, 'text', ...).
  function el(tag, attrs, ...children) {
    const e = tag.startsWith('svg:') ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'on') for (const [ev, f] of Object.entries(v)) e.addEventListener(ev, f);
      else if (v !== null && v !== undefined) e.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  // ---- Positions: the deltas of package report, applied in order ----

  // decodePly returns a ply's piece, its reference piece (-1 for the first piece) and the
  // direction from the destination to the reference, or null for a pass.
  function decodePly(game, i) {
    const s = game.x.substr(i * DELTA_WIDTH, DELTA_WIDTH);
    if (s[0] === '.') return null;
    return { piece: DIGITS.indexOf(s[0]), ref: s[1] === '.' ? -1 : DIGITS.indexOf(s[1]), dir: DIGITS.indexOf(s[2]) };
  }

  function plyCount(game) { return game.x.length / DELTA_WIDTH; }

  // moveText writes a ply in Mzinga's notation.
  function moveText(game, i) {
    const m = decodePly(game, i);
    if (!m) return 'pass';
    const p = PIECES[m.piece];
    if (m.ref < 0) return p;
    const r = PIECES[m.ref];
    return p + ' ' + [r + '\\', '/' + r, '-' + r, '\\' + r, r + '/', r + '-', r][m.dir];
  }

  function moveList(game) { return Array.from({ length: plyCount(game) }, (_, i) => moveText(game, i)); }

  // position returns the stacks (bottom first) by "q,r" after the first plies, and the cell
  // of the last piece moved. The first piece goes to (0, 0), every other one next to (or on)
  // its reference.
  function position(game, plies) {
    const cells = new Map(), where = new Map();
    let last = null;
    for (let i = 0; i < plies; i++) {
      const m = decodePly(game, i);
      if (!m) { last = null; continue; }
      let q = 0, r = 0;
      if (m.ref >= 0) {
        [q, r] = where.get(m.ref);
        if (m.dir !== ON_TOP) { q -= STEPS[m.dir][0]; r -= STEPS[m.dir][1]; }
      }
      const from = where.get(m.piece);
      if (from !== undefined) {
        const key = from[0] + ',' + from[1], st = cells.get(key);
        st.pop();
        if (st.length === 0) cells.delete(key);
      }
      const key = q + ',' + r;
      where.set(m.piece, [q, r]);
      if (!cells.has(key)) cells.set(key, []);
      cells.get(key).push(m.piece);
      last = key;
    }
    return { cells, last };
  }

  // ---- The board ----

  const HEX = 26;
  function hexCentre(q, r) { return [HEX * Math.sqrt(3) * (q + r / 2), HEX * 1.5 * r]; }
  function hexPoints(x, y, size) {
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const a = Math.PI / 180 * (60 * i - 30);
      pts.push((x + size * Math.cos(a)).toFixed(1) + ',' + (y + size * Math.sin(a)).toFixed(1));
    }
    return pts.join(' ');
  }

  function drawBoard(svg, game, plies) {
    const { cells, last } = position(game, plies);
    svg.replaceChildren();
    if (cells.size === 0) {
      svg.setAttribute('viewBox', '-100 -60 200 120');
      svg.append(el('svg:text', { x: 0, y: 0, 'text-anchor': 'middle', fill: '#868e96' }, 'empty board'));
      return;
    }
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const key of cells.keys()) {
      const [q, r] = key.split(',').map(Number);
      const [x, y] = hexCentre(q, r);
      minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
    const pad = HEX * 2;
    const w = Math.max(maxX - minX + 2 * pad, 8 * HEX), h = Math.max(maxY - minY + 2 * pad, 6 * HEX);
    const cx = (minX + maxX) / 2, cy = (minY + maxY) / 2;
    svg.setAttribute('viewBox', [cx - w / 2, cy - h / 2, w, h].map(v => v.toFixed(1)).join(' '));
    for (const [key, stack] of cells) {
      const [q, r] = key.split(',').map(Number);
      const [x, y] = hexCentre(q, r);
      const top = PIECES[stack[stack.length - 1]];
      const white = top[0] === 'w', bug = top[1], label = top.slice(1);
      const names = stack.map(p => PIECES[p]);
      const g = el('svg:g', { class: 'hexcell' + (key === last ? ' last' : ''), 'data-q': q, 'data-r': r, 'data-stack': names.join(' ') },
        el('svg:title', {}, names.length > 1 ? names.slice().reverse().join(' on ') : top),
        el('svg:polygon', { class: 'face', points: hexPoints(x, y, HEX - 1.5), fill: white ? '#fbf7ee' : '#2b2b2b', stroke: '#444', 'stroke-width': 1.2 }),
        el('svg:polygon', { points: hexPoints(x, y, HEX - 6), fill: 'none', stroke: BUG_COLOURS[bug], 'stroke-width': 3 }),
        el('svg:text', { x: x, y: y, fill: white ? '#1d232b' : '#f8f9fa' }, label));
      if (stack.length > 1) {
        g.append(el('svg:circle', { cx: x + HEX * 0.55, cy: y - HEX * 0.55, r: 7.5, fill: '#d9480f' }),
          el('svg:text', { class: 'height', x: x + HEX * 0.55, y: y - HEX * 0.55, fill: '#fff' }, String(stack.length)));
      }
      svg.append(g);
    }
  }

  // ---- Formatting ----

  function clockText(ms) {
    if (ms === null || ms === undefined || ms < 0) return '-';
    const s = ms / 1000, m = Math.floor(s / 60);
    return m + ':' + (s - 60 * m).toFixed(1).padStart(4, '0');
  }
  function resultText(r) { return { WhiteWins: '1-0', BlackWins: '0-1', Draw: '½-½' }[r] || '*'; }

  // clocksAt returns each side's clock after the first plies (null without clocks), charging
  // each move as the arbiter does: the clock before it, less the thinking time (not below
  // zero), plus the increment, plus the drift the data records (rounding).
  function clocksAt(game, plies) {
    if (!game.clock0) return null;
    const c = game.clock0.slice();
    for (let i = game.open; i < plies; i++) {
      const side = i % 2, j = i - game.open;
      if (c[side] < 0 || game.ms[j] === undefined) continue;
      c[side] = Math.max(c[side] - game.ms[j], 0) + game.inc[side] + ((game.drift && game.drift[j]) || 0);
    }
    return c;
  }

  // ---- The replayer ----

  function Replayer(root) {
    const svg = el('svg:svg', { class: 'board', id: 'board' });
    const info = el('div', { class: 'side' });
    root.append(el('div', { class: 'replayer' }, svg, info));
    let game = null, ply = 0;
    const self = {
      get game() { return game; }, get ply() { return ply; },
      open(g) { game = g; ply = plyCount(g); render(); root.hidden = false; },
      go(p) { if (game) { ply = Math.max(0, Math.min(plyCount(game), p)); render(); } },
      step(d) { self.go(ply + d); },
    };
    function render() {
      const d = state.data, moves = moveList(game), n = plyCount(game);
      drawBoard(svg, game, ply);
      const clocks = clocksAt(game, ply);
      const toMove = ply % 2;
      const who = (side, name) => el('div', { class: 'clock' + (ply < n || !game.r ? (toMove === side ? ' tomove' : '') : ''), id: side ? 'clock-black' : 'clock-white' },
        el('span', {}, (side ? 'Black: ' : 'White: ') + name), el('span', {}, clocks ? clockText(clocks[side]) : ''));
      const m = ply > 0 ? moves[ply - 1] : '';
      const ms = ply > game.open && game.ms[ply - 1 - game.open] !== undefined ? ' (' + (game.ms[ply - 1 - game.open] / 1000).toFixed(2) + ' s)' : '';
      const list = el('div', { class: 'plylist' });
      const plySpan = i => el('span', { class: i + 1 === ply ? 'cur' : null, on: { click: () => self.go(i + 1) } }, moves[i]);
      for (let i = 0; i < moves.length; i += 2) {
        list.append(el('div', {}, el('span', { class: 'turn' }, String(i / 2 + 1) + '.'), plySpan(i), i + 1 < moves.length ? plySpan(i + 1) : null));
      }
      const ended = game.r && ply === n;
      info.replaceChildren(
        el('h3', {}, 'Game ' + (game.n + 1) + ' · round ' + game.round + ' · ' + game.type),
        who(0, d.engines[game.w]), who(1, d.engines[game.b]),
        el('div', { class: 'move', id: 'move' }, ply === 0 ? 'start' : 'ply ' + ply + (ply <= game.open ? ' (opening)' : '') + ': ' + m + ms),
        el('div', { class: 'controls' },
          el('button', { title: 'first ply (Home)', on: { click: () => self.go(0) } }, '|◀'),
          el('button', { title: 'previous ply (←)', id: 'prev', on: { click: () => self.step(-1) } }, '◀'),
          el('button', { title: 'next ply (→)', id: 'next', on: { click: () => self.step(1) } }, '▶'),
          el('button', { title: 'last ply (End)', on: { click: () => self.go(n) } }, '▶|'),
          el('span', { class: 'note' }, ply + ' / ' + n)),
        list,
        el('div', { class: 'ending' + (ended || game.error ? '' : ' hidden'), id: 'ending' },
          game.r ? resultText(game.r) + ' ' + game.r + ' (' + game.why + '): ' + (game.detail || '') : 'in progress',
          game.error ? el('div', {}, 'Not replayed to the end: ' + game.error) : null,
          (game.warn || []).length ? el('div', { class: 'note' }, 'Warnings: ' + game.warn.join('; ')) : null));
      const cur = list.querySelector('.cur');
      if (cur) cur.scrollIntoView({ block: 'nearest' });
    }
    document.addEventListener('keydown', e => {
      if (!game || e.target.tagName === 'INPUT') return;
      const keys = { ArrowLeft: -1, ArrowRight: 1 };
      if (e.key in keys) { self.step(keys[e.key]); e.preventDefault(); }
      else if (e.key === 'Home') { self.go(0); e.preventDefault(); }
      else if (e.key === 'End') { self.go(plyCount(game)); e.preventDefault(); }
    });
    return self;
  }

  // ---- Charts ----

  function chartWidth(host) { return Math.max(320, (host.clientWidth || 600) - 8); }

  // groupedBars draws series i of n side by side around each x.
  function groupedBars(i, n) {
    const w = 0.8 / n;
    return uPlot.paths.bars({
      disp: {
        x0: { unit: 1, values: u => u.data[0].map(x => x - 0.4 + i * w) },
        size: { unit: 1, values: u => u.data[0].map(() => w) },
      },
    });
  }

  // Charts are made once every section is in the grid, so that each knows its final width.
  let pendingCharts = [];
  function makeChart(name, host, opts, data) { pendingCharts.push({ name, host, opts, data }); }
  function flushCharts() {
    for (const { name, host, opts, data } of pendingCharts) {
      if (state.charts[name]) state.charts[name].destroy();
      opts.width = chartWidth(host);
      opts.height = opts.height || 240;
      const u = new uPlot(opts, data, host);
      // Band edges are drawn but not named in the legend.
      opts.series.forEach((s, i) => { if (s.edge) u.root.querySelectorAll('.u-legend .u-series')[i].style.display = 'none'; });
      state.charts[name] = u;
    }
    pendingCharts = [];
  }
  // A whole-number axis: counts of pairs, games, plies and moves.
  const INT_INCRS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 50000, 100000];
  function intAxis(label, extra) { return Object.assign({ label, incrs: INT_INCRS }, extra || {}); }

  function section(id, title, note) {
    return el('section', { id: id }, el('h2', {}, title), note ? el('div', { class: 'note' }, note) : null);
  }

  function drawCharts(d, grid) {
    grid.replaceChildren();
    for (const name of Object.keys(state.charts)) { state.charts[name].destroy(); delete state.charts[name]; }
    const unit = d.progress.unit, n = d.progress.elo.length ? d.progress.elo[0].elo.length : 0;
    const xs = Array.from({ length: n }, (_, i) => i + 1);
    const xLabel = unit === 'pairs' ? 'game pairs played' : 'games played';

    if (n > 0) {
      const s = section('chart-elo', 'Elo', 'with its 95% interval, after each of the ' + n + ' ' + unit + ', in schedule order');
      grid.append(s);
      const series = [{ label: xLabel }], data = [xs], bands = [];
      d.progress.elo.forEach((c, i) => {
        const col = ENGINE_COLOURS[i % ENGINE_COLOURS.length];
        series.push({ label: c.engine, stroke: col, width: 2 });
        series.push({ label: c.engine + ' upper', stroke: col + '55', width: 1, edge: true, points: { show: false } });
        series.push({ label: c.engine + ' lower', stroke: col + '55', width: 1, edge: true, points: { show: false } });
        data.push(c.elo, c.upper, c.lower);
        bands.push({ series: [3 * i + 2, 3 * i + 3], fill: col + '22' });
      });
      makeChart('elo', s, { series, bands, scales: { x: { time: false } }, axes: [intAxis(xLabel), { label: 'Elo' }] }, data);
    }
    if (d.progress.sprt && n > 0) {
      const t = d.progress.sprt;
      const s = section('chart-llr', 'SPRT log-likelihood ratio',
        'H0: ' + t.elo0 + ', H1: ' + t.elo1 + ' (' + t.model + '); ' + (t.decided_at ? t.decision + ' accepted after ' + t.decided_at + ' ' + unit : 'no decision yet'));
      grid.append(s);
      makeChart('llr', s, {
        series: [{ label: xLabel }, { label: 'LLR', stroke: '#1971c2', width: 2 },
          { label: 'upper bound', stroke: '#2f9e44', dash: [6, 4] }, { label: 'lower bound', stroke: '#e03131', dash: [6, 4] }],
        scales: { x: { time: false } }, axes: [intAxis(xLabel), { label: 'LLR' }],
      }, [xs, t.llr, xs.map(() => t.upper), xs.map(() => t.lower)]);
    }
    if (d.openings.list.length) {
      const s = section('chart-openings', 'Score by opening', 'score of ' + d.openings.of + ' in the games of each opening');
      grid.append(s);
      const os = d.openings.list;
      makeChart('openings', s, {
        series: [{ label: 'opening', value: (u, v) => v == null ? '-' : openingLabel(os[v - 1]) },
          { label: 'score %', fill: '#1971c299', stroke: '#1971c2', paths: uPlot.paths.bars({ size: [0.8, 40] }), points: { show: false } }],
        scales: { x: { time: false, range: [0.5, os.length + 0.5] }, y: { range: [0, 100] } },
        axes: [intAxis('opening'), { label: 'score %' }],
      }, [os.map((_, i) => i + 1), os.map(o => o.games ? Math.round(1000 * o.points / o.games) / 10 : null)]);
    }
    if (d.terminations.reasons.length) {
      const s = section('chart-terminations', 'How games ended', 'games of each engine by reason (won + drawn + lost)');
      grid.append(s);
      const reasons = d.terminations.reasons;
      const series = [{ label: 'reason', value: (u, v) => v == null ? '-' : reasons[v - 1] }], data = [reasons.map((_, i) => i + 1)];
      d.engines.forEach((e, i) => {
        const col = ENGINE_COLOURS[i % ENGINE_COLOURS.length];
        series.push({ label: e, fill: col + 'bb', stroke: col, paths: groupedBars(i, d.engines.length), points: { show: false } });
        data.push(d.terminations.count[i].map(c => c[0] + c[1] + c[2]));
      });
      makeChart('terminations', s, {
        series, scales: { x: { time: false, range: [0.4, reasons.length + 0.6] }, y: { range: (u, lo, hi) => [0, Math.max(1, hi * 1.1)] } },
        axes: [{ values: (u, vals) => vals.map(v => Number.isInteger(v) ? reasons[v - 1] || '' : ''), space: 60 }, { label: 'games' }],
      }, data);
    }
    const moveNumbers = Math.max(0, ...d.times.map(t => t.ms.length));
    if (moveNumbers > 0) {
      const mx = Array.from({ length: moveNumbers }, (_, i) => i + 1);
      const pad = a => mx.map((_, i) => a[i] ?? null);
      const s = section('chart-time', 'Time per move', 'average thinking time by the engine\'s move number in a game');
      grid.append(s);
      makeChart('time', s, {
        series: [{ label: 'move' }].concat(d.times.map((t, i) => ({ label: t.engine, stroke: ENGINE_COLOURS[i % ENGINE_COLOURS.length], width: 2, value: (u, v) => v == null ? '-' : v.toFixed(3) + ' s' }))),
        scales: { x: { time: false } }, axes: [intAxis('move number'), { label: 'seconds' }],
      }, [mx].concat(d.times.map(t => pad(t.ms).map(v => v == null ? null : v / 1000))));
      if (d.times.some(t => t.clock.some(v => v !== null))) {
        const c = section('chart-clock', 'Clock left', 'average time left on the engine\'s clock after its move');
        grid.append(c);
        makeChart('clock', c, {
          series: [{ label: 'move' }].concat(d.times.map((t, i) => ({ label: t.engine, stroke: ENGINE_COLOURS[i % ENGINE_COLOURS.length], width: 2, value: (u, v) => v == null ? '-' : v.toFixed(1) + ' s' }))),
          scales: { x: { time: false } }, axes: [intAxis('move number'), { label: 'seconds' }],
        }, [mx].concat(d.times.map(t => pad(t.clock).map(v => v == null ? null : v / 1000))));
      }
    }
    if (d.lengths.length) {
      const s = section('chart-lengths', 'Game lengths', 'games by number of plies, opening included');
      grid.append(s);
      makeChart('lengths', s, {
        series: [{ label: 'plies' }, { label: 'games', fill: '#2f9e4499', stroke: '#2f9e44', paths: uPlot.paths.bars({ size: [0.9, 30] }), points: { show: false } }],
        scales: { x: { time: false, range: [-0.5, d.lengths.length - 0.5] } }, axes: [intAxis('plies'), { label: 'games', incrs: INT_INCRS }],
      }, [d.lengths.map((_, i) => i), d.lengths]);
    }
    flushCharts();
  }

  function openingLabel(o) {
    return (o.index >= 0 ? '#' + o.index + ' ' : '') + (o.moves || 'empty board') + ': ' + o.games + ' games';
  }

  // ---- Tables ----

  function timingTable(d) {
    const t = el('table', { class: 'list', id: 'timing' },
      el('thead', {}, el('tr', {}, ...['Engine', 'Moves', 'Avg/move', 'Max/move', 'Overruns', 'Faults'].map((h, i) => el('th', { class: i ? 'num' : null }, h)))));
    const body = el('tbody');
    for (const r of d.timing || []) {
      body.append(el('tr', {}, el('td', {}, r.engine), el('td', { class: 'num' }, String(r.moves)),
        el('td', { class: 'num' }, (r.mean_ms / 1000).toFixed(3) + ' s'), el('td', { class: 'num' }, (r.max_ms / 1000).toFixed(3) + ' s'),
        el('td', { class: 'num' }, String(r.overruns)), el('td', { class: 'num' }, String(r.faults))));
    }
    t.append(body);
    return t;
  }

  function gameMatches(d, g, f) {
    if (!f) return true;
    const hay = [String(g.n + 1), d.engines[g.w], d.engines[g.b], g.r, resultText(g.r), g.why || ''].join(' ').toLowerCase();
    return f.split(/\s+/).every(w => hay.includes(w));
  }

  function drawList(host) {
    const d = state.data, f = state.filter.toLowerCase().trim();
    const rows = d.list.filter(g => gameMatches(d, g, f));
    const pages = Math.max(1, Math.ceil(rows.length / PAGE_ROWS));
    state.page = Math.min(state.page, pages - 1);
    const body = el('tbody');
    for (const g of rows.slice(state.page * PAGE_ROWS, (state.page + 1) * PAGE_ROWS)) {
      body.append(el('tr', { 'data-game': g.n, class: state.replayer.game === g ? 'sel' : null, on: { click: () => { state.replayer.open(g); drawList(host); document.getElementById('replay').scrollIntoView({ block: 'nearest' }); } } },
        el('td', { class: 'num' }, String(g.n + 1)), el('td', { class: 'num' }, String(g.round)),
        el('td', {}, d.engines[g.w]), el('td', {}, d.engines[g.b]), el('td', {}, resultText(g.r)),
        el('td', {}, g.why || ''), el('td', { class: 'num' }, String(plyCount(g))), el('td', {}, g.error ? 'replay error' : '')));
    }
    host.replaceChildren(
      el('div', { class: 'pager' },
        el('button', { on: { click: () => { state.page = Math.max(0, state.page - 1); drawList(host); } } }, '◀'),
        el('span', {}, 'page ' + (state.page + 1) + ' of ' + pages + ' · ' + rows.length + ' games'),
        el('button', { on: { click: () => { state.page = Math.min(pages - 1, state.page + 1); drawList(host); } } }, '▶')),
      el('table', { class: 'list', id: 'games' },
        el('thead', {}, el('tr', {}, ...['#', 'Round', 'White', 'Black', 'Result', 'Reason', 'Plies', ''].map((h, i) => el('th', { class: [0, 1, 6].includes(i) ? 'num' : null }, h)))),
        body));
  }

  // ---- The page ----

  function renderSummary(d) {
    document.title = d.title;
    document.getElementById('title').textContent = d.title;
    const live = document.body.dataset.mode === 'live';
    document.getElementById('sub').textContent = d.engines.join(' · ') + ' — ' + d.games + (d.planned ? ' of ' + d.planned : '') + ' games' + (live ? ' (live)' : '');
    document.getElementById('tables').textContent = d.tables;
    const prog = document.getElementById('progress');
    if (prog) {
      prog.hidden = !d.planned;
      prog.firstChild.style.width = (d.planned ? 100 * d.games / d.planned : 0).toFixed(1) + '%';
    }
    drawCharts(d, document.getElementById('charts'));
    document.getElementById('timing-host').replaceChildren(timingTable(d));
  }

  function skeleton(live) {
    const main = document.getElementById('app');
    const replay = section('replay', 'Replay', 'Choose a game below; step with ← and →, Home and End.');
    replay.hidden = true;
    main.append(...[
      live ? el('section', { id: 'live' }, el('h2', {}, 'Progress'), el('div', { class: 'progress', id: 'progress' }, el('div', {})),
        el('h2', {}, 'Games in progress'), el('div', { class: 'running', id: 'running' }, el('div', { class: 'empty' }, 'none'))) : null,
      el('section', {}, el('h2', {}, 'Results'), el('pre', { class: 'tables', id: 'tables' })),
      el('div', { class: 'grid', id: 'charts' }),
      el('section', {}, el('h2', {}, 'Time per engine'), el('div', { id: 'timing-host' }),
        el('div', { class: 'note' }, 'Overruns: moves that took longer than their budget but were forgiven within the margin; faults: games lost by misbehaving.')),
      replay,
      el('section', { id: 'list' }, el('h2', {}, 'Games'),
        el('input', { type: 'search', placeholder: 'filter: engine, result, reason, number', on: { input: e => { state.filter = e.target.value; state.page = 0; drawList(document.getElementById('list-host')); } } }),
        el('div', { id: 'list-host' }))].filter(Boolean));
    state.replayer = Replayer(replay);
  }

  // ---- Live ----

  function runningCard(g) {
    const svg = el('svg:svg', { class: 'board' });
    const status = el('div', { class: 'note' });
    const card = el('div', { class: 'game', 'data-game': g.n }, el('div', { class: 'title' }, 'Game ' + (g.n + 1) + ': ' + state.data.engines[g.w] + ' vs ' + state.data.engines[g.b]), svg, status);
    return { card, draw() {
      const n = plyCount(g), moves = moveList(g), c = clocksAt(g, n);
      drawBoard(svg, g, n);
      status.textContent = 'ply ' + n + (n ? ': ' + moves[n - 1] : '') + (c ? ' · clocks ' + clockText(c[0]) + ' / ' + clockText(c[1]) : '');
      status.id = 'status-' + g.n;
    } };
  }

  function drawRunning() {
    const host = document.getElementById('running');
    if (state.running.size === 0) { host.replaceChildren(el('div', { class: 'empty' }, 'none')); return; }
    host.replaceChildren(...[...state.running.values()].map(r => r.card));
  }

  function startGame(g) {
    const r = runningCard(g);
    r.game = g;
    state.running.set(g.n, r);
    r.draw();
    drawRunning();
  }

  function live() {
    const es = new EventSource('events');
    state.events = es;
    es.addEventListener('snapshot', e => {
      const s = JSON.parse(e.data);
      state.data = s.data;
      renderSummary(s.data);
      drawList(document.getElementById('list-host'));
      state.running.clear();
      for (const g of s.running) startGame(g);
      drawRunning();
      document.body.dataset.ready = '1';
    });
    es.addEventListener('start', e => startGame(JSON.parse(e.data)));
    es.addEventListener('move', e => {
      const m = JSON.parse(e.data), r = state.running.get(m.n);
      if (!r) return;
      const g = r.game;
      g.x += m.x;
      g.ms.push(m.ms);
      if (g.clock0) (g.drift = g.drift || []).push(m.drift || 0);
      r.draw();
    });
    es.addEventListener('finish', e => {
      const f = JSON.parse(e.data);
      state.running.delete(f.game.n);
      drawRunning();
      f.data.list = state.data.list.concat([f.game]);
      state.data = f.data;
      renderSummary(f.data);
      drawList(document.getElementById('list-host'));
    });
  }

  // ---- A tune ----

  // drawTune draws a tune's page: each parameter's path as a share of its range, the step
  // sizes, and the plus side's score.
  function drawTune(d) {
    document.title = d.title;
    document.getElementById('title').textContent = d.title;
    const live = document.body.dataset.mode === 'tune-live';
    document.getElementById('sub').textContent = d.engine + ' — ' + d.pairs + ' of ' + d.iterations + ' game pairs · ' + d.games + (live ? ' (live)' : '');
    document.getElementById('tables').textContent = d.tables;
    const prog = document.getElementById('progress');
    if (prog) prog.firstChild.style.width = (d.iterations ? 100 * d.pairs / d.iterations : 0).toFixed(1) + '%';
    const grid = document.getElementById('charts');
    grid.replaceChildren();
    for (const name of Object.keys(state.charts)) { state.charts[name].destroy(); delete state.charts[name]; }
    const xLabel = 'game pairs played';
    const colour = i => ENGINE_COLOURS[i % ENGINE_COLOURS.length];
    const perParam = (id, title, note, curve, value, yAxis, range) => {
      const s = section(id, title, note);
      grid.append(s);
      makeChart(id, s, {
        series: [{ label: xLabel }].concat(d.params.map((p, i) => ({ label: p.name, stroke: colour(i), width: 2, value: (u, v) => v == null ? '-' : value(p, v) }))),
        scales: { x: { time: false }, y: range ? { range } : {} }, axes: [intAxis(xLabel), yAxis],
      }, [d.x].concat(d.params.map(curve)));
    };
    perParam('tune-path', 'Parameters', 'each value after each pair, in percent of its range (0 is its min, 100 its max); the legend shows the value itself',
      p => p.path, (p, v) => (p.min + v * (p.max - p.min) / 100).toFixed(2), { label: '% of range' }, [0, 100]);
    perParam('tune-c', 'Perturbation c_k', 'what each pair adds to and takes from a value, in percent of its range',
      p => p.c, (p, v) => v.toFixed(2) + ' %', { label: '% of range' });
    perParam('tune-r', 'Learning rate r_k', 'a_k / c_k²: a pair moves a value by r_k · c_k per point of result',
      p => p.r, (p, v) => v.toPrecision(3), { label: 'r_k', size: 70 });
    const s = section('tune-score', 'Score of the plus side', 'over all pairs so far, and over the last 100; 50% when the two sides are as strong');
    grid.append(s);
    makeChart('tune-score', s, {
      series: [{ label: xLabel }, { label: 'all pairs', stroke: '#1971c2', width: 2 }, { label: 'last 100', stroke: '#e8590c', width: 1 },
        { label: '50%', stroke: '#868e96', dash: [6, 4], points: { show: false } }],
      scales: { x: { time: false }, y: { range: [0, 100] } }, axes: [intAxis(xLabel), { label: 'score %' }],
    }, [d.x, d.score, d.recent, d.x.map(() => 50)]);
    flushCharts();
  }

  function tuneSkeleton(live) {
    document.getElementById('app').append(...[
      live ? el('section', { id: 'live' }, el('h2', {}, 'Progress'), el('div', { class: 'progress', id: 'progress' }, el('div', {}))) : null,
      el('section', {}, el('h2', {}, 'Tune'), el('pre', { class: 'tables', id: 'tables' })),
      el('div', { class: 'grid', id: 'charts' })].filter(Boolean));
  }

  function tuneLive() {
    const es = new EventSource('events');
    state.events = es;
    es.addEventListener('tune', e => {
      state.data = JSON.parse(e.data);
      drawTune(state.data);
      document.body.dataset.ready = '1';
    });
  }

  async function loadData() {
    const node = document.getElementById('data');
    if (node.type === 'application/json') return JSON.parse(node.textContent);
    // Large reports embed their data gzipped and base64-encoded.
    const b64 = node.textContent.trim();
    let bin;
    if (Uint8Array.fromBase64) bin = Uint8Array.fromBase64(b64);
    else {
      const text = atob(b64);
      bin = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++) bin[i] = text.charCodeAt(i);
    }
    const text = await new Response(new Blob([bin]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
    return JSON.parse(text);
  }

  async function main() {
    const mode = document.body.dataset.mode;
    if (mode === 'tune' || mode === 'tune-live') {
      tuneSkeleton(mode === 'tune-live');
      if (mode === 'tune-live') { tuneLive(); return; }
      state.data = await loadData();
      drawTune(state.data);
      document.body.dataset.ready = '1';
      return;
    }
    const isLive = mode === 'live';
    skeleton(isLive);
    if (isLive) { live(); return; }
    state.startMs = performance.now(); // the page's HTML is parsed
    const d = await loadData();
    state.dataMs = performance.now();
    state.data = d;
    renderSummary(d);
    drawList(document.getElementById('list-host'));
    state.readyMs = performance.now(); // since navigation started
    document.body.dataset.ready = '1';
  }

  main().catch(e => { state.errors.push(String(e)); document.body.dataset.ready = 'error'; throw e; });
})();
