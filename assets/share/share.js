// share.js - the players' page of hexbattle (docs/sharing.md). Plain
// JavaScript, nothing fetched from elsewhere: it asks the referee's laptop
// for the lobby, joins one combatant, then draws every picture the laptop
// streams (server-sent events) and sends that combatant's commands.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const SQ3 = Math.sqrt(3);
  const params = new URLSearchParams(location.search);
  let key = params.get('k') || '';
  let token = null;
  let source = null;
  // Everything the laptop sent, as text (the browser test reads it).
  const page = (window.hbPage = { received: [], state: null, mode: null, cam: null });
  const anim = {}; // unit id -> {fx, fy, tx, ty, t0}
  const ANIM_MS = 350;
  // The battle's new events played as the laptop plays them, one beat after
  // another: a tracer or a lunge for an attack, a hit or a miss on the
  // target, a floating damage number, a downed token. Only events the page
  // was sent (its side's log) play, so nothing hidden is drawn.
  const beats = []; // {t0, ev}: events waiting for their turn
  const fx = [];    // live effects: {kind, t0, life, from, to, el}
  let lastEvent = null; // n of the newest event played (null: none yet)
  let beatEnd = 0;      // when the beat queue is free again
  page.fxPlayed = [];   // {kind, id} of every effect started (tests read it)
  const BEAT = { attack: 450, damage: 300, defeated: 450, fled: 450, area: 450 };

  function show(id) {
    for (const s of ['ask', 'lobby', 'game']) $(s).hidden = s !== id;
  }
  function status(text) { $('status').textContent = text; }

  async function call(url, body) {
    const opts = body === undefined ? {} : {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
    const r = await fetch(url, opts);
    const text = await r.text();
    page.received.push(text);
    let json = null;
    try { json = JSON.parse(text); } catch (e) { json = { error: 'unreadable answer' }; }
    return { ok: r.ok, status: r.status, json };
  }

  // ---- asking for the code, the lobby, joining ----------------------------
  function ask(why) {
    show('ask');
    status('needs the code');
    $('ask-error').textContent = why || '';
  }
  $('ask-form').addEventListener('submit', (e) => {
    e.preventDefault();
    key = $('ask-key').value.trim();
    history.replaceState(null, '', '?k=' + encodeURIComponent(key));
    lobby();
  });

  // The page's seat: a number the referee sees in the play window ("Page 3")
  // and can give a combatant to.
  let seat = null, lobbyTimer = null, lobbyShown = '';
  async function hello() {
    const old = sessionStorage.getItem('hbs:' + key);
    const r = await call('/api/hello', old ? { k: key, s: old } : { k: key });
    if (!r.ok) return r;
    seat = r.json.seat;
    sessionStorage.setItem('hbs:' + key, seat);
    $('page-no').textContent = 'Page ' + r.json.page;
    return r;
  }

  async function lobby(why) {
    clearTimeout(lobbyTimer);
    if (!key) return ask();
    if (!seat) {
      const h = await hello();
      if (h.status === 403) return ask('That code is not this battle\'s.');
      if (!h.ok) return ask(h.json.error);
    }
    const r = await call('/api/lobby?k=' + encodeURIComponent(key) + '&s=' + encodeURIComponent(seat));
    if (token && !$('game').hidden) return; // joined while it was asked
    if (r.status === 403) return ask('That code is not this battle\'s.');
    if (!r.ok) return ask(r.json.error);
    if (r.json.page === undefined) seat = null; // the laptop forgot this page: hello again
    if (r.json.you) {
      // The referee gave this page a combatant.
      token = r.json.you.token;
      sessionStorage.setItem('hb:' + key, token);
      return watch();
    }
    if ($('lobby').hidden) lobbyShown = '';
    show('lobby');
    status(r.json.map);
    $('title').textContent = r.json.map;
    if (why !== undefined) $('lobby-error').textContent = why;
    // Asked again every 1.5 s, so a combatant the referee gives shows at
    // once; the buttons are made again only when the list changed.
    lobbyTimer = setTimeout(() => lobby(), 1500);
    const list = $('lobby-list');
    const shown = JSON.stringify(r.json.players);
    if (shown === lobbyShown) return;
    lobbyShown = shown;
    list.textContent = '';
    for (const p of r.json.players) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.textContent = p.name + (p.taken ? ' (taken)' : '');
      b.disabled = p.taken;
      b.dataset.id = p.id;
      b.addEventListener('click', () => join(p.id));
      li.appendChild(b);
      list.appendChild(li);
    }
  }

  async function join(id) {
    clearTimeout(lobbyTimer);
    const r = await call('/api/join', seat ? { k: key, id, s: seat } : { k: key, id });
    if (!r.ok) return lobby(r.json.error);
    token = r.json.token;
    sessionStorage.setItem('hb:' + key, token);
    watch();
  }

  function watch() {
    clearTimeout(lobbyTimer);
    page.state = null;
    lastEvent = null;
    show('game');
    status('connecting…');
    if (source) source.close();
    source = new EventSource('/api/events?t=' + encodeURIComponent(token));
    source.onmessage = (e) => {
      page.received.push(e.data);
      status('live');
      picture(JSON.parse(e.data));
    };
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) {
        // Refused (the laptop forgot the token, or stopped sharing).
        sessionStorage.removeItem('hb:' + key);
        token = null;
        status('not connected');
        lobby('The referee took this combatant back, or the laptop stopped sharing: pick again.');
      } else {
        status('reconnecting…');
      }
    };
  }

  // ---- geometry ------------------------------------------------------------
  function centre(map, c, r) {
    const odd = map.stagger === 'odd';
    if (map.orient === 'flat') {
      const shift = (c & 1) === (odd ? 1 : 0) ? 0.5 : 0;
      return { x: 1.5 * c + 1, y: SQ3 * (r + shift) + SQ3 / 2 };
    }
    const shift = (r & 1) === (odd ? 1 : 0) ? 0.5 : 0;
    return { x: SQ3 * (c + shift) + SQ3 / 2, y: 1.5 * r + 1 };
  }
  function corners(map, p) {
    const out = [];
    for (let k = 0; k < 6; k++) {
      const a = Math.PI / 180 * (60 * k + (map.orient === 'flat' ? 0 : 30));
      out.push({ x: p.x + Math.cos(a), y: p.y + Math.sin(a) });
    }
    return out;
  }
  function mapSize(map) {
    if (map.orient === 'flat') return { w: 1.5 * map.cols + 0.5, h: SQ3 * (map.rows + 0.5) };
    return { w: SQ3 * (map.cols + 0.5), h: 1.5 * map.rows + 0.5 };
  }
  const canvas = $('board');
  const ctx = canvas.getContext('2d');
  function fit() {
    const s = page.state;
    if (!s) return;
    const sz = mapSize(s.map);
    const w = canvas.width, h = canvas.height;
    const z = Math.min(w / sz.w, h / sz.h) * 0.97;
    page.cam = { z, x: (w - sz.w * z) / 2, y: (h - sz.h * z) / 2 };
  }
  function toScreen(p) { const c = page.cam; return { x: c.x + p.x * c.z, y: c.y + p.y * c.z }; }
  // Where cell (c, r)'s middle is, in CSS pixels from the canvas's corner.
  page.cellCenter = function (c, r) {
    const p = toScreen(centre(page.state.map, c, r));
    const k = canvas.clientWidth / canvas.width;
    return { x: p.x * k, y: p.y * k };
  };
  function cellAt(px, py) {
    const s = page.state;
    if (!s) return null;
    const c = page.cam;
    const wx = (px - c.x) / c.z, wy = (py - c.y) / c.z;
    let best = null, bd = 1.0;
    for (let r = 0; r < s.map.rows; r++)
      for (let q = 0; q < s.map.cols; q++) {
        const p = centre(s.map, q, r);
        const d = Math.hypot(p.x - wx, p.y - wy);
        if (d < bd) { bd = d; best = [q, r]; }
      }
    return best;
  }

  // ---- drawing ---------------------------------------------------------------
  function resize() {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(canvas.clientWidth * dpr));
    const h = Math.max(1, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
      fit();
    }
  }
  function hexPath(map, p) {
    const cs = corners(map, p);
    ctx.beginPath();
    cs.forEach((q, i) => { const s = toScreen(q); if (i) ctx.lineTo(s.x, s.y); else ctx.moveTo(s.x, s.y); });
    ctx.closePath();
  }
  function unitPos(u, map, now) {
    const to = lunged(u.id, centre(map, u.at[0], u.at[1]), now);
    const a = anim[u.id];
    if (!a) return to;
    const t = Math.min(1, (now - a.t0) / ANIM_MS);
    if (t >= 1) { delete anim[u.id]; return to; }
    return { x: a.fx + (to.x - a.fx) * t, y: a.fy + (to.y - a.fy) * t };
  }
  // A melee attacker leans a third of a hex towards its target and back.
  function lunged(id, p, now) {
    for (const f of fx) {
      if (f.kind !== 'lunge' || f.who !== id || now < f.t0) continue;
      const k = Math.sin(Math.PI * Math.min(1, (now - f.t0) / f.life)) * 0.35;
      const dx = f.to.x - f.from.x, dy = f.to.y - f.from.y, d = Math.hypot(dx, dy) || 1;
      return { x: p.x + dx / d * k, y: p.y + dy / d * k };
    }
    return p;
  }
  function draw() {
    resize();
    const s = page.state;
    ctx.fillStyle = '#0b0c0e';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    if (!s) return;
    if (!page.cam) fit();
    const map = s.map, z = page.cam.z;
    const reach = new Set();
    const mv = page.mode !== null && s.me ? s.me.legal.find((l) => l.mode === page.mode && l.reach) : null;
    if (mv) for (const c of mv.reach) reach.add(c[0] + ',' + c[1]);
    for (let r = 0; r < map.rows; r++)
      for (let c = 0; c < map.cols; c++) {
        const k = r * map.cols + c;
        const t = map.cells[k];
        const fog = map.fog[k];
        hexPath(map, centre(map, c, r));
        ctx.fillStyle = t >= 0 ? map.types[t].color : '#15171b';
        ctx.fill();
        if (fog === '1') { ctx.fillStyle = 'rgba(10,12,16,0.5)'; ctx.fill(); }
        if (reach.has(c + ',' + r)) { ctx.fillStyle = 'rgba(90,170,255,0.45)'; ctx.fill(); }
        ctx.strokeStyle = 'rgba(0,0,0,0.25)';
        ctx.lineWidth = Math.max(1, z * 0.04);
        ctx.stroke();
      }
    const now = performance.now();
    const acting = new Set(s.turn.actors);
    let moving = false;
    for (const u of s.units) {
      const p = toScreen(unitPos(u, map, now));
      if (anim[u.id]) moving = true;
      const rad = z * 0.72;
      ctx.globalAlpha = u.out ? 0.4 : 1;
      ctx.beginPath();
      ctx.arc(p.x, p.y, rad, 0, 2 * Math.PI);
      ctx.fillStyle = u.own ? '#2f6fd0' : '#c0392b';
      ctx.fill();
      const you = s.me && u.id === s.me.id;
      ctx.lineWidth = Math.max(2, z * (you ? 0.16 : 0.08));
      ctx.strokeStyle = you ? '#f3d37a' : acting.has(u.id) ? '#ffffff' : '#101216';
      ctx.stroke();
      ctx.fillStyle = '#fff';
      ctx.font = 'bold ' + Math.round(z * 0.7) + 'px sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(u.name.slice(0, 2), p.x, p.y);
      if (u.hp_max) {
        const w = rad * 2, f = Math.max(0, u.hp) / u.hp_max;
        ctx.fillStyle = '#333';
        ctx.fillRect(p.x - rad, p.y + rad + 2, w, z * 0.16);
        ctx.fillStyle = f > 0.5 ? '#5fbf6a' : f > 0.25 ? '#e0b040' : '#d05040';
        ctx.fillRect(p.x - rad, p.y + rad + 2, w * f, z * 0.16);
      }
      if (u.conditions) {
        ctx.font = Math.round(z * 0.45) + 'px sans-serif';
        ctx.fillStyle = '#f3d37a';
        ctx.fillText(u.conditions, p.x, p.y - rad - z * 0.3);
      }
      ctx.globalAlpha = 1;
    }
    // The intentions the referee telegraphed to the table: a ring and an arrow.
    const where = {};
    for (const u of s.units) where[u.id] = toScreen(unitPos(u, map, now));
    for (const it of s.intents || []) {
      const a = where[it.id];
      if (!a) continue;
      const b = it.target ? where[it.target] : it.at ? toScreen(centre(map, it.at[0], it.at[1])) : null;
      ctx.strokeStyle = '#f3d37a';
      ctx.lineWidth = Math.max(2, z * 0.1);
      ctx.beginPath();
      ctx.arc(a.x, a.y, z * 0.95, 0, 2 * Math.PI);
      ctx.stroke();
      if (b) {
        ctx.beginPath();
        ctx.moveTo(a.x, a.y);
        ctx.lineTo(b.x, b.y);
        ctx.stroke();
      }
      ctx.fillStyle = '#f3d37a';
      ctx.font = 'bold ' + Math.round(z * 0.5) + 'px sans-serif';
      ctx.fillText(it.label, a.x, a.y + z * 1.35);
    }
    if (drawEffects(now) || moving) again();
  }
  // One more frame, once however many ask for it.
  let frameAsked = false;
  function again() {
    if (frameAsked) return;
    frameAsked = true;
    requestAnimationFrame(() => { frameAsked = false; draw(); });
  }

  // ---- attacks, hits, damage and downs -----------------------------------
  function unitById(id) {
    const s = page.state;
    return id && s ? s.units.find((u) => u.id === id) : null;
  }
  // Where unit id stands now (world units), or null when the side sees it not.
  function whereIs(id) {
    const u = unitById(id);
    return u ? centre(page.state.map, u.at[0], u.at[1]) : null;
  }
  // A word or number floating up from a world point, as a page element (so
  // it is drawn by the browser and seen by tests); gone when its CSS
  // animation ends.
  function floatText(kind, text, at, t0, life, id) {
    fx.push({ kind, t0, life, from: at, to: at, who: id, text, el: null });
  }
  function startEffect(f) {
    page.fxPlayed.push({ kind: f.kind, id: f.who || null });
    if (f.text === undefined) return;
    const el = document.createElement('div');
    el.className = 'fx fx-' + f.kind;
    el.textContent = f.text;
    el.style.animationDuration = f.life + 'ms';
    $('fx').appendChild(el);
    f.el = el;
  }
  // Queue the events of picture s that are newer than the last one played.
  function queueEvents(s) {
    const log = s.log || [];
    const newest = log.length ? log[log.length - 1].n : -1;
    if (lastEvent === null || newest < lastEvent) { lastEvent = newest; return; } // first picture, or undone
    const now = performance.now();
    // Far behind (a long AI turn): what waits is skipped, as the laptop's
    // Space skips, so the page never lags the battle by more than a few s.
    if (beatEnd - now > 4000) { beats.length = 0; beatEnd = now; }
    let t = Math.max(now, beatEnd);
    for (const e of log) {
      if (e.n <= lastEvent) continue;
      const len = BEAT[e.event];
      if (!len) continue; // moves slide; the rest shows in the panels
      beats.push({ t0: t, ev: e });
      t += len;
    }
    beatEnd = t;
    lastEvent = newest;
  }
  // Turn the beats whose time has come into effects.
  function play(now) {
    while (beats.length && beats[0].t0 <= now) {
      const { t0, ev } = beats.shift();
      if (ev.event === 'attack') {
        const a = whereIs(ev.attacker), b = whereIs(ev.target);
        if (a && b) {
          const near = Math.hypot(a.x - b.x, a.y - b.y) < 2.2; // next hex: a blow, else a shot
          fx.push({ kind: near ? 'lunge' : 'tracer', t0, life: 380, from: a, to: b, who: ev.attacker });
        }
        if (b) floatText(ev.hit ? 'hit' : 'miss', ev.hit ? 'hit' : 'miss', b, t0 + 200, 700, ev.target);
      } else if (ev.event === 'damage') {
        const b = whereIs(ev.target);
        if (b) floatText('damage', ev.amount !== undefined ? '−' + ev.amount : '✶', b, t0, 1100, ev.target);
      } else if (ev.event === 'defeated' || ev.event === 'fled') {
        const b = whereIs(ev.id);
        if (b) floatText('down', ev.event === 'fled' ? 'fled' : 'down', b, t0, 1200, ev.id);
      } else if (ev.event === 'area' && ev.to) {
        const b = centre(page.state.map, ev.to[0], ev.to[1]);
        fx.push({ kind: 'area', t0, life: 600, from: b, to: b, size: ev.size || 1, who: ev.who });
      }
    }
  }
  // Draw the live effects; true while any is left (or waits).
  function drawEffects(now) {
    play(now);
    const z = page.cam.z;
    for (let i = fx.length - 1; i >= 0; i--) {
      const f = fx[i];
      if (now < f.t0) continue;
      if (!f.started) { f.started = true; startEffect(f); }
      const t = (now - f.t0) / f.life;
      if (t >= 1) {
        if (f.el) f.el.remove();
        fx.splice(i, 1);
        continue;
      }
      const a = toScreen(f.from), b = toScreen(f.to);
      if (f.el) {
        const k = canvas.clientWidth / canvas.width;
        f.el.style.left = a.x * k + 'px';
        f.el.style.top = (a.y - z * 0.9) * k + 'px';
      } else if (f.kind === 'tracer') {
        // A bright dash running from the shooter to the target.
        const h = Math.min(1, t * 1.6), tl = Math.max(0, h - 0.35);
        ctx.strokeStyle = 'rgba(255,230,140,' + (1 - t * 0.6) + ')';
        ctx.lineWidth = Math.max(2, z * 0.12);
        ctx.beginPath();
        ctx.moveTo(a.x + (b.x - a.x) * tl, a.y + (b.y - a.y) * tl);
        ctx.lineTo(a.x + (b.x - a.x) * h, a.y + (b.y - a.y) * h);
        ctx.stroke();
      } else if (f.kind === 'area') {
        ctx.fillStyle = 'rgba(255,140,60,' + 0.45 * (1 - t) + ')';
        ctx.beginPath();
        ctx.arc(a.x, a.y, z * (0.9 + 1.75 * (f.size - 0.5)) * (0.6 + 0.4 * t), 0, 2 * Math.PI);
        ctx.fill();
      }
      if (f.kind === 'hit' || f.kind === 'damage') {
        // A ring that widens and fades on the struck token.
        ctx.strokeStyle = 'rgba(255,90,60,' + (1 - t) + ')';
        ctx.lineWidth = Math.max(2, z * 0.14);
        ctx.beginPath();
        ctx.arc(a.x, a.y, z * (0.75 + 0.6 * t), 0, 2 * Math.PI);
        ctx.stroke();
      }
    }
    return fx.length > 0 || beats.length > 0;
  }

  // ---- the panels ------------------------------------------------------------
  function text(tag, t, cls) {
    const e = document.createElement(tag);
    e.textContent = t;
    if (cls) e.className = cls;
    return e;
  }
  const names = {};
  function who(id) { return id === undefined || id === null ? '' : (names[id] || id); }
  function logLine(e) {
    switch (e.event) {
      case 'move_step': return who(e.id) + ' moves';
      case 'attack': return who(e.attacker) + ' attacks ' + who(e.target) + ': ' + (e.hit ? 'hit' : 'miss');
      case 'damage': return who(e.target) + (e.amount !== undefined ? ' takes ' + e.amount : ' is hurt');
      case 'roll': return who(e.who) + ' rolls ' + e.total + (e.why ? ' (' + e.why + ')' : '');
      case 'turn_start': return 'Turn: ' + (e.id ? who(e.id) : e.side || '');
      case 'initiative': return (e.id ? who(e.id) : e.side || '') + ': initiative ' + e.score;
      case 'round_end': return 'End of round ' + e.round;
      case 'defeated': return who(e.id) + ' is defeated';
      case 'condition': return who(e.id) + (e.on ? ' is ' : ' is no longer ') + e.condition;
      case 'fled': return who(e.id) + ' flees';
      case 'area': return who(e.who) + ': ' + e.shape;
      case 'end': return 'The battle is over' + (e.winner ? ': ' + e.winner + ' win' : '');
      case 'action': return who(e.id) + ': ' + e.action;
      default: return e.event;
    }
  }
  function panels(s) {
    for (const u of s.units) names[u.id] = u.name;
    $('title').textContent = s.map.name;
    const card = $('card');
    card.textContent = '';
    const me = s.me;
    if (me) {
      card.appendChild(text('div', me.name, 'name'));
      card.appendChild(text('div', 'HP ' + me.hp + ' / ' + me.hp_max));
      const bar = document.createElement('div');
      bar.className = 'bar';
      const fill = document.createElement('div');
      fill.style.width = Math.round(100 * Math.max(0, me.hp) / Math.max(1, me.hp_max)) + '%';
      bar.appendChild(fill);
      card.appendChild(bar);
      for (const g of me.gauges) if (g.label !== 'HP') card.appendChild(text('div', g.label + ' ' + g.value + ' / ' + g.max));
      if (me.conditions) card.appendChild(text('div', me.conditions));
      if (me.weapons.length) card.appendChild(text('div', 'Weapons: ' + me.weapons.join(', ')));
    }
    const acts = $('actions');
    acts.textContent = '';
    if (me && me.die) {
      // The laptop waits for a physical die from this player's hands.
      const d = me.die;
      acts.appendChild(text('p', 'Roll a d' + d.sides + (d.count > 1 ? ' (die ' + d.index + ' of ' + d.count + ')' : '') +
        (d.why ? ' for ' + d.why : '') + ' and enter it:'));
      const form = document.createElement('form');
      form.id = 'die-form';
      const input = document.createElement('input');
      input.type = 'number';
      input.min = 1;
      input.max = d.sides;
      input.id = 'die-value';
      const ok = text('button', 'Enter');
      form.appendChild(input);
      form.appendChild(ok);
      form.addEventListener('submit', (e) => { e.preventDefault(); sendDie(Number(input.value)); });
      acts.appendChild(form);
    } else if (s.turn.over) acts.appendChild(text('p', 'The battle is over' + (s.turn.winner ? ': ' + s.turn.winner + ' win.' : '.')));
    else if (me && me.acts) {
      acts.appendChild(text('p', 'Your turn. Pick a move and tap a blue hex, or an action.'));
      if (page.mode === null || !me.legal.some((l) => l.mode === page.mode)) {
        const first = me.legal.find((l) => l.reach);
        page.mode = first ? first.mode : null;
      }
      for (const l of me.legal) {
        const b = text('button', l.label + (l.odds !== undefined ? ' — ' + l.odds + '%' : ''));
        if (l.reach) {
          b.dataset.mode = l.mode;
          if (l.mode === page.mode) b.className = 'on';
          b.addEventListener('click', () => { page.mode = l.mode; panels(page.state); draw(); });
        } else {
          b.dataset.cmd = l.cmd.cmd;
          b.addEventListener('click', () => send({ cmd: l.cmd }));
        }
        acts.appendChild(b);
      }
    } else {
      page.mode = null;
      acts.appendChild(text('p', 'Waiting: ' + (s.turn.actors.map(who).join(', ') || s.turn.sides.join(', ') || '…')));
    }
    const order = $('order');
    order.textContent = '';
    for (const o of s.order) {
      const li = text('li', (o.name || o.side || '') + (o.label ? ' — ' + o.label : ''));
      if (o.id && s.turn.actors.includes(o.id)) li.className = 'now';
      order.appendChild(li);
    }
    const log = $('log');
    log.textContent = '';
    for (const e of s.log) log.appendChild(text('li', logLine(e)));
    log.scrollTop = log.scrollHeight;
  }

  function picture(s) {
    const old = page.state;
    const map = s.map;
    if (old) {
      const was = {};
      for (const u of old.units) was[u.id] = u.at;
      for (const u of s.units) {
        const a = was[u.id];
        if (a && (a[0] !== u.at[0] || a[1] !== u.at[1])) {
          const f = centre(map, a[0], a[1]);
          anim[u.id] = { fx: f.x, fy: f.y, t0: performance.now() };
        }
      }
    }
    page.state = s;
    queueEvents(s);
    if (!old || old.map.cols !== map.cols || old.map.rows !== map.rows) fit();
    panels(s);
    draw();
  }

  async function send(body) {
    body.t = token;
    $('note').textContent = '';
    const r = await call('/api/cmd', body);
    if (!r.ok) $('note').textContent = r.json.error;
    else if (r.json.queued) $('note').textContent = 'Sent: waiting for the referee.';
  }

  async function sendDie(value) {
    $('note').textContent = '';
    const r = await call('/api/die', { t: token, value });
    if (!r.ok) $('note').textContent = r.json.error;
  }

  // ---- zoom, pan and taps ----------------------------------------------------
  const pointers = new Map();
  let downAt = null, pinch = null;
  function local(e) {
    const rect = canvas.getBoundingClientRect();
    const k = canvas.width / rect.width;
    return { x: (e.clientX - rect.left) * k, y: (e.clientY - rect.top) * k };
  }
  function zoomAt(p, f) {
    const c = page.cam;
    if (!c) return;
    const z = Math.min(400, Math.max(2, c.z * f));
    c.x = p.x - (p.x - c.x) * (z / c.z);
    c.y = p.y - (p.y - c.y) * (z / c.z);
    c.z = z;
    draw();
  }
  canvas.addEventListener('pointerdown', (e) => {
    canvas.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, local(e));
    downAt = pointers.size === 1 ? { p: local(e), moved: 0 } : null;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = Math.hypot(a.x - b.x, a.y - b.y);
    }
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!pointers.has(e.pointerId) || !page.cam) return;
    const prev = pointers.get(e.pointerId), p = local(e);
    pointers.set(e.pointerId, p);
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      if (pinch) zoomAt({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, d / pinch);
      pinch = d;
      return;
    }
    page.cam.x += p.x - prev.x;
    page.cam.y += p.y - prev.y;
    if (downAt) downAt.moved += Math.abs(p.x - prev.x) + Math.abs(p.y - prev.y);
    draw();
  });
  canvas.addEventListener('pointerup', (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (downAt && downAt.moved < 8 * (window.devicePixelRatio || 1)) tap(local(e));
    downAt = null;
  });
  canvas.addEventListener('pointercancel', (e) => { pointers.delete(e.pointerId); downAt = null; pinch = null; });
  canvas.addEventListener('wheel', (e) => { e.preventDefault(); zoomAt(local(e), e.deltaY < 0 ? 1.15 : 1 / 1.15); }, { passive: false });
  $('zoom-in').addEventListener('click', () => zoomAt({ x: canvas.width / 2, y: canvas.height / 2 }, 1.25));
  $('zoom-out').addEventListener('click', () => zoomAt({ x: canvas.width / 2, y: canvas.height / 2 }, 0.8));
  $('zoom-fit').addEventListener('click', () => { fit(); draw(); });
  window.addEventListener('resize', draw);

  function tap(p) {
    const s = page.state;
    if (!s || !s.me || !s.me.acts || page.mode === null) return;
    const cell = cellAt(p.x, p.y);
    if (!cell) return;
    const mv = s.me.legal.find((l) => l.mode === page.mode && l.reach);
    if (mv && mv.reach.some((c) => c[0] === cell[0] && c[1] === cell[1]))
      send({ move: { mode: page.mode, to: cell } });
  }

  // ---- start -----------------------------------------------------------------
  if (!key) ask();
  else {
    token = sessionStorage.getItem('hb:' + key);
    if (token) {
      hello(); // the page's number again, for the header
      watch();
    } else lobby();
  }
})();
