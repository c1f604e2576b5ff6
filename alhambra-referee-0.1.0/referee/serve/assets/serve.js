/* Scoring at the table (alhambra-referee serve). The page keeps what the players laid out,
   writes it as the notation's position block and asks the server, which reads, checks and
   scores it with the engine. Nothing here knows a rule of the game: which tiles fit a cell,
   the findings, the scoring and the drawings of the Alhambras all come from the server.
   Text from players or records is only ever set with textContent (never innerHTML); the
   server's SVG drawings are parsed as XML and copied element by element from a fixed list. */
(function () {
  'use strict';

  var WORDS = {
    en: {
      title: 'Scoring at the table',
      intro: 'Lay out each Alhambra as it lies on the table: tap a cell, pick the tile. The referee checks and scores it.',
      game: 'Game', players: 'Players', player: 'Player', add_player: 'Add player',
      remove_player: 'Remove', name: 'Name', rules: 'Rules', modules: 'Expansion modules',
      scoring: 'Scoring', final: 'final scoring (3rd)', scoring1: '1st scoring', scoring2: '2nd scoring',
      points_before: 'Points before this scoring', hand: 'Money in hand (for the leftover tiles)',
      add_card: 'Add card', reserve: 'Reserve', tap_cell: 'Tap a cell to lay a tile.',
      dirk: 'Dirk (two players)', dirk_help: 'Dirk\'s tiles score majorities, never a wall.',
      add_tile: 'Add tile', leftovers: 'Leftover tiles in the market (optional)',
      leftovers_help: 'Tiles left at the end go to the player with the most money of the field\'s currency; the referee says who.',
      leftover_to: '{tile} ({field}) goes to {player}', leftover_none: '{tile} ({field}): nobody (tie or no money)',
      leftover_unknown: 'money not known for everybody',
      result: 'Result', findings: 'Findings', no_findings: 'Layouts possible: every tile used once, building rules kept.',
      scoring_title: 'Scoring {n}', count: 'count', wall: 'longest outer wall', sum: 'this scoring',
      total: 'total', tie: 'tie', not_verified: 'stated, not verified', no_wall: 'no wall (Dirk)',
      winners: 'Winner', winners_n: 'Winners', working: 'Scoring…', syntax: 'The position text has syntax errors:',
      text: 'Position block', text_help: 'Copy it into a record (a file); this command gives the same result:',
      copy: 'Copy', copied: 'Copied.', load: 'Load a position block', load_help: 'Paste a position block or choose a file, then load it.',
      load_button: 'Load', file: 'File', loaded: 'Loaded.', cell: 'Cell {at} of {name}', market_field: 'Market field {field}',
      dirk_tile: 'A tile for Dirk', fits: 'Tiles that fit here', misfits: 'Tiles that do not fit here (the referee will report them)',
      show_misfits: 'Show tiles that do not fit', used_by: 'used by {name}', remove_tile: 'Empty this cell',
      close: 'Close', piece: 'Module piece (token, e.g. {kinds})', place: 'Place', all_types: 'all',
      error: 'Error', server_error: 'The referee could not answer: {why}', offline: 'The referee does not answer (is alhambra-referee serve still running?)',
      points: 'points', fountain: 'fountain', empty: '–', none: 'none', command: 'Command',
      rule: 'rule', line: 'line', on_tile: 'at {cells}', module_hint: 'Module pieces: type their token in the tile picker.',
      profile_note: 'Rules {name}', ordinal: '{n}.', remove_card: 'Remove {card}',
      kept: 'Lines kept as written',
      pieces: 'Module pieces at hand (the referee checks whether they fit)', lies_reserve: 'from the reserve',
      lies_market: 'from the market', lies_offer: 'on offer', lies_cell: 'on this cell', fits_here: 'fits'
    },
    de: {
      title: 'Wertung am Tisch',
      intro: 'Jede Alhambra so auslegen, wie sie auf dem Tisch liegt: Feld antippen, Plättchen wählen. Der Schiedsrichter prüft und wertet.',
      game: 'Partie', players: 'Spieler', player: 'Spieler', add_player: 'Spieler hinzufügen',
      remove_player: 'Entfernen', name: 'Name', rules: 'Regeln', modules: 'Erweiterungsmodule',
      scoring: 'Wertung', final: 'Schlusswertung (3.)', scoring1: '1. Wertung', scoring2: '2. Wertung',
      points_before: 'Punkte vor dieser Wertung', hand: 'Geld auf der Hand (für die restlichen Plättchen)',
      add_card: 'Karte hinzufügen', reserve: 'Reserve', tap_cell: 'Ein Feld antippen, um ein Plättchen zu legen.',
      dirk: 'Dirk (zu zweit)', dirk_help: 'Dirks Plättchen zählen bei den Mehrheiten, nie eine Mauer.',
      add_tile: 'Plättchen hinzufügen', leftovers: 'Restliche Plättchen am Markt (wahlweise)',
      leftovers_help: 'Plättchen, die am Ende übrig sind, bekommt, wer das meiste Geld der Währung des Feldes hat; der Schiedsrichter sagt, wer.',
      leftover_to: '{tile} ({field}) bekommt {player}', leftover_none: '{tile} ({field}): niemand (Gleichstand oder kein Geld)',
      leftover_unknown: 'Geld nicht von allen bekannt',
      result: 'Ergebnis', findings: 'Befunde', no_findings: 'Aufbau möglich: jedes Plättchen einmal verwendet, Bauregeln eingehalten.',
      scoring_title: '{n}. Wertung', count: 'Anzahl', wall: 'längste Außenmauer', sum: 'diese Wertung',
      total: 'gesamt', tie: 'gleichauf', not_verified: 'angegeben, nicht geprüft', no_wall: 'keine Mauer (Dirk)',
      winners: 'Sieger', winners_n: 'Sieger', working: 'Wertung läuft…', syntax: 'Der Stellungstext hat Syntaxfehler:',
      text: 'Stellungsblock', text_help: 'In eine Aufzeichnung (eine Datei) kopieren; dieser Befehl ergibt dasselbe:',
      copy: 'Kopieren', copied: 'Kopiert.', load: 'Stellungsblock laden', load_help: 'Einen Stellungsblock einfügen oder eine Datei wählen, dann laden.',
      load_button: 'Laden', file: 'Datei', loaded: 'Geladen.', cell: 'Feld {at} von {name}', market_field: 'Marktfeld {field}',
      dirk_tile: 'Ein Plättchen für Dirk', fits: 'Plättchen, die hier passen', misfits: 'Plättchen, die hier nicht passen (der Schiedsrichter meldet sie)',
      show_misfits: 'Unpassende Plättchen zeigen', used_by: 'bei {name}', remove_tile: 'Feld leeren',
      close: 'Schließen', piece: 'Modulteil (Kürzel, z. B. {kinds})', place: 'Legen', all_types: 'alle',
      error: 'Fehler', server_error: 'Der Schiedsrichter konnte nicht antworten: {why}', offline: 'Der Schiedsrichter antwortet nicht (läuft alhambra-referee serve noch?)',
      points: 'Punkte', fountain: 'Brunnen', empty: '–', none: 'keine', command: 'Befehl',
      rule: 'Regel', line: 'Zeile', on_tile: 'bei {cells}', module_hint: 'Modulteile: ihr Kürzel in der Plättchenauswahl eingeben.',
      profile_note: 'Regeln {name}', ordinal: '{n}.', remove_card: '{card} entfernen',
      kept: 'Zeilen wie geschrieben',
      pieces: 'Modulteile zur Hand (der Schiedsrichter prüft, ob sie passen)', lies_reserve: 'aus der Reserve',
      lies_market: 'vom Bauhof', lies_offer: 'im Angebot', lies_cell: 'auf diesem Feld', fits_here: 'passt'
    }
  };
  var ORD_EN = function (n) {
    var s = ['th', 'st', 'nd', 'rd'], v = n % 100;
    return n + (s[(v - 20) % 10] || s[v] || s[0]);
  };
  var TYPES = ['P', 'S', 'A', 'C', 'G', 'T'];
  var CURRENCIES = ['Gu', 'Di', 'De', 'Du'];
  var SVGNS = 'http://www.w3.org/2000/svg';

  var lang = document.body.getAttribute('data-lang') === 'de' ? 'de' : 'en';
  var CAT = null;          // the server's catalogue: tiles, profiles, modules, type names
  var TILE = {};           // code -> tile info
  var model = {
    event: '', rules: '', modules: [], round: 3,
    players: [newPlayer('Anna'), newPlayer('Ben'), newPlayer('Cem')],
    dirk: [], market: { Gu: null, Di: null, De: null, Du: null }, extra: []
  };
  var last = null;         // the last answer of /api/score
  var seq = 0;             // answers to older requests are dropped
  var picker = null;       // what the open picker is for

  function newPlayer(name) {
    return { name: name, score: 0, hand: [], reserve: [], cells: {}, extra: [] };
  }
  function $(id) { return document.getElementById(id); }
  function w(key, params) {
    var s = (WORDS[lang][key] !== undefined ? WORDS[lang][key] : key);
    Object.keys(params || {}).forEach(function (k) { s = s.split('{' + k + '}').join(String(params[k])); });
    return s;
  }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'cls') { e.className = attrs[k]; } else { e.setAttribute(k, attrs[k]); }
    });
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function add(parent, child) { parent.appendChild(child); return child; }
  function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } return node; }
  function typeName(code) { return CAT && CAT.types[code] ? CAT.types[code][lang] : code; }

  // ------------------------------------------------------------------ tile pictures
  // The replay's tile chip (replay.css: .tile .tX .wN ...), built as elements.
  function tileChip(code) {
    var info = TILE[code];
    if (!info) {
      var m = el('span', { cls: 'tile mod', 'data-code': code });
      m.textContent = code;
      return m;
    }
    var cls = 'tile t' + info.type + info.walls.split('').map(function (c) { return ' w' + c; }).join('');
    var chip = el('span', { cls: cls, 'data-code': code, title: (lang === 'de' ? info.name_de : info.name_en) + ' (' + code + ')' });
    add(chip, el('b', {}, info.price));
    add(chip, el('i', {}, info.type));
    return chip;
  }

  // ------------------------------------------------------------------ the position block
  function headerValue(s) { return String(s).replace(/\\/g, '\\\\').replace(/"/g, '\\"'); }
  function cleanName(s) { return String(s).replace(/["\\,#{}\[\]\r\n\t]/g, '').trim().slice(0, 40); }
  function nameToken(s) { return /^[A-Za-zÀ-ÖØ-öø-ÿ][A-Za-z0-9_À-ÖØ-öø-ÿ-]*$/.test(s) ? s : '"' + s + '"'; }
  function cellKey(k) { var p = k.split(','); return [+p[0], +p[1]]; }
  function sortedCells(cells) {
    return Object.keys(cells).sort(function (a, b) {
      var A = cellKey(a), B = cellKey(b);
      return (B[1] - A[1]) || (A[0] - B[0]);
    });
  }
  function positionText() {
    var out = [];
    if (model.event) { out.push('[Event "' + headerValue(model.event) + '"]'); }
    out.push('[Players "' + model.players.map(function (p) { return headerValue(p.name); }).join(', ') + '"]');
    out.push('[Rules "' + headerValue(model.rules || (CAT ? CAT.profiles[0] : 'queen-2003')) + '"]');
    if (model.modules.length) { out.push('[Modules "' + headerValue(model.modules.join(', ')) + '"]'); }
    out.push('');
    out.push('position');
    out.push('  scorings ' + (model.round - 1));
    var fields = CURRENCIES.filter(function (c) { return model.market[c]; });
    if (fields.length) {
      out.push('  market ' + CURRENCIES.map(function (c) { return c + ':' + (model.market[c] || '-'); }).join(' '));
    }
    if (model.players.length === 2 && model.dirk.length) { out.push('  dirk ' + model.dirk.join(' ')); }
    model.extra.forEach(function (line) { out.push('  ' + line); });
    model.players.forEach(function (p) {
      out.push('  player ' + nameToken(p.name));
      out.push('    score ' + (parseInt(p.score, 10) || 0));
      if (p.hand.length || fields.length) { out.push('    hand' + p.hand.map(function (c) { return ' ' + c; }).join('')); }
      if (p.reserve.length) { out.push('    reserve ' + p.reserve.join(' ')); }
      var cells = sortedCells(p.cells);
      if (cells.length) { out.push('    alhambra ' + cells.map(function (k) { return p.cells[k] + '@' + k; }).join(' ')); }
      p.extra.forEach(function (line) { out.push('    ' + line); });
    });
    out.push('end');
    return out.join('\n') + '\n';
  }

  // ------------------------------------------------------------------ talking to the server
  function post(path, data) {
    data.lang = lang;
    return fetch(path, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(data)
    }).then(function (r) {
      return r.json().then(function (body) {
        if (!r.ok) { throw new Error(body && body.error ? body.error : String(r.status)); }
        return body;
      });
    }, function () { throw new Error(w('offline')); });
  }
  var timer = null;
  function changed() {
    $('position-text').value = positionText();
    $('text-command').textContent = 'alhambra-referee score FILE' + (model.round !== 3 ? ' --round ' + model.round : '');
    document.body.classList.add('busy');  // an answer is owed from now on
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(score, 120);
  }
  function score() {
    timer = null;
    var mine = ++seq;
    document.body.classList.add('busy');
    $('status').textContent = w('working');
    return post('/api/score', { text: positionText(), round: model.round }).then(function (answer) {
      if (mine !== seq) { return; }
      document.body.classList.remove('busy');
      last = answer;
      showAnswer(answer);
    }, function (err) {
      if (mine !== seq) { return; }
      document.body.classList.remove('busy');
      showError(err.message);
    });
  }
  function showError(message) {
    var st = clear($('status'));
    st.className = 'status bad';
    st.textContent = w('server_error', { why: message });
    document.body.setAttribute('data-state', 'error');
  }

  // ------------------------------------------------------------------ drawings from the server
  // The server's SVG (the replay's alhambra_fragment) parsed as XML; only these elements and
  // attributes are copied, so nothing in it can run.
  var SVG_TAGS = { svg: 1, g: 1, rect: 1, text: 1, title: 1, path: 1, circle: 1, line: 1 };
  var SVG_ATTRS = { 'class': 1, viewBox: 1, width: 1, height: 1, x: 1, y: 1, cx: 1, cy: 1, r: 1, d: 1,
    x1: 1, y1: 1, x2: 1, y2: 1, 'text-anchor': 1, style: 1, 'data-at': 1, 'data-x0': 1, 'data-y1': 1,
    'data-cell': 1, 'data-margin': 1 };
  function copySvg(node) {
    if (node.nodeType === 3) { return document.createTextNode(node.nodeValue); }
    if (node.nodeType !== 1 || !SVG_TAGS[node.localName]) { return null; }
    var out = document.createElementNS(SVGNS, node.localName);
    Array.prototype.forEach.call(node.attributes, function (a) {
      if (SVG_ATTRS[a.name] && !/url\s*\(|expression|javascript:/i.test(a.value)) { out.setAttribute(a.name, a.value); }
    });
    Array.prototype.forEach.call(node.childNodes, function (c) {
      var copy = copySvg(c);
      if (copy) { out.appendChild(copy); }
    });
    return out;
  }
  function drawing(markup) {
    var doc = new DOMParser().parseFromString(markup.replace('<svg ', '<svg xmlns="' + SVGNS + '" '), 'image/svg+xml');
    var root = doc.documentElement;
    if (!root || root.localName !== 'svg') { return null; }
    return copySvg(root);
  }
  function cellRect(svg, at, cls) {
    var x0 = +svg.getAttribute('data-x0'), y1 = +svg.getAttribute('data-y1');
    var cell = +svg.getAttribute('data-cell'), margin = +svg.getAttribute('data-margin');
    var c = cellKey(at);
    var r = document.createElementNS(SVGNS, 'rect');
    r.setAttribute('x', margin + (c[0] - x0) * cell);
    r.setAttribute('y', margin + (y1 - c[1]) * cell);
    r.setAttribute('width', cell);
    r.setAttribute('height', cell);
    r.setAttribute('class', cls);
    r.setAttribute('data-at', at);
    return r;
  }
  function isHit(t) {
    return !!(t && t.getAttribute && (' ' + (t.getAttribute('class') || '') + ' ').indexOf(' hit ') >= 0);
  }
  function addHits(svg, player) {
    var vb = svg.getAttribute('viewBox').split(' ');
    var x0 = +svg.getAttribute('data-x0'), y1 = +svg.getAttribute('data-y1');
    var cell = +svg.getAttribute('data-cell'), margin = +svg.getAttribute('data-margin');
    var cols = Math.round((+vb[2] - margin - 8) / cell), rows = Math.round((+vb[3] - margin - 8) / cell);
    for (var i = 0; i < cols; i++) {
      for (var j = 0; j < rows; j++) {
        var at = (x0 + i) + ',' + (y1 - j);
        if (at === '0,0') { continue; }
        var r = cellRect(svg, at, svg.querySelector('g.c[data-at="' + at + '"]') ? 'hit' : 'hit free');
        r.setAttribute('role', 'button');
        r.setAttribute('tabindex', '0');
        r.setAttribute('aria-label', w('cell', { at: at, name: player.name }));
        svg.appendChild(r);
      }
    }
    svg.addEventListener('click', function (e) {
      var t = e.target;
      if (isHit(t)) { openCell(player, t.getAttribute('data-at')); }
    });
    svg.addEventListener('keydown', function (e) {
      var t = e.target;
      if ((e.key === 'Enter' || e.key === ' ') && isHit(t)) {
        e.preventDefault();
        openCell(player, t.getAttribute('data-at'));
      }
    });
  }

  // ------------------------------------------------------------------ the answer
  function ordinal(n) { return lang === 'de' ? n + '.' : ORD_EN(n); }
  function showAnswer(answer) {
    var st = clear($('status'));
    st.className = 'status';
    document.body.setAttribute('data-state', answer.ok ? 'scored' : 'syntax');
    var fd = clear($('findings'));
    var sc = clear($('scoring'));
    if (!answer.ok) {
      st.className = 'status bad';
      st.textContent = w('syntax');
      answer.syntax_errors.forEach(function (e) {
        var box = add(fd, el('div', { cls: 'v' }));
        add(box, el('span', { cls: 'code' }, w('line') + ' ' + e.line + ':' + e.column + ' '));
        add(box, el('span', {}, e.message));
        if (e.excerpt) { add(box, el('pre', { cls: 'excerpt' }, e.excerpt)); }
      });
      return;
    }
    var game = answer.game;
    if (answer.note) { add(st, el('p', { cls: 'note' }, answer.note)); }
    if (!answer.findings.length) { add(fd, el('p', { cls: 'ok' }, w('no_findings'))); }
    answer.findings.forEach(function (f) {
      var box = add(fd, el('div', { cls: 'v', 'data-code': f.code }));
      add(box, el('span', { cls: 'code' }, f.code));
      add(box, document.createTextNode(' '));
      if (f.player) { add(box, el('b', {}, f.player + ': ')); }
      add(box, el('span', { cls: 'msg' }, f.message));
      if (f.cells && f.cells.length) { add(box, el('span', { cls: 'cells' }, ' ' + w('on_tile', { cells: f.cells.join('; ') }))); }
      if (f.rule) { add(box, el('div', { cls: 'sec' }, w('rule') + ': ' + f.rule)); }
    });
    drawPlayers(answer);
    if (game.scoring) { sc.appendChild(breakdown(game.scoring, game.winners)); }
    showLeftovers(answer.leftovers || []);
  }
  function breakdown(s, winners) {
    var box = el('div', { cls: 'scoring', 'data-round': s.round });
    add(box, el('h3', {}, w('scoring_title', { n: s.round })));
    var scroll = add(box, el('div', { cls: 'tscroll' }));
    var table = add(scroll, el('table', { cls: 'breakdown', id: 'breakdown' }));
    var head = add(add(table, el('thead')), el('tr'));
    add(head, el('th'));
    s.players.forEach(function (p) { add(head, el('th', { scope: 'col' }, p.name)); });
    var body = add(table, el('tbody'));
    function row(label, cls, swatch, cell) {
      var tr = add(body, el('tr', { cls: cls || '' }));
      var th = add(tr, el('th', { scope: 'row' }));
      if (swatch) { add(th, el('i', { cls: 'sw ' + swatch })); }
      add(th, document.createTextNode(label));
      s.players.forEach(function (p) { tr.appendChild(cell(p)); });
    }
    TYPES.forEach(function (code) {
      row(typeName(code), 'type', 't' + code, function (p) {
        var td = el('td', { 'data-player': p.name, 'data-key': code });
        var b = p.buildings[code];
        if (!b) { return td; }
        add(td, el('b', {}, b.points));
        var place = b.place === null || b.place === undefined ? '–' : ordinal(b.place);
        if (b.tied_with && b.tied_with.length) { place += ' (' + w('tie') + ': ' + b.tied_with.join(', ') + ')'; }
        add(td, el('span', { cls: 'cnt' }, b.count + '× · ' + place));
        if (b.split) { add(td, el('small', {}, b.split)); }
        (b.adjustments || []).forEach(function (a) { add(td, el('small', {}, (lang === 'de' ? a.label_de || a.label : a.label) + ' ' + a.amount)); });
        return td;
      });
    });
    row(w('wall'), 'wallrow', 'gold', function (p) {
      var td = el('td', { 'data-player': p.name, 'data-key': 'wall' });
      if (!p.wall) { add(td, el('small', {}, w('no_wall'))); return td; }
      add(td, el('b', {}, p.wall.points));
      add(td, el('span', { cls: 'cnt' }, p.wall.length));
      if (!p.wall.verified) { add(td, el('small', {}, w('not_verified'))); }
      return td;
    });
    var keys = [];
    s.players.forEach(function (p) { Object.keys(p.categories || {}).forEach(function (k) { if (keys.indexOf(k) < 0) { keys.push(k); } }); });
    keys.forEach(function (k) {
      var label = k;
      s.players.forEach(function (p) { var c = (p.categories || {})[k]; if (c) { label = lang === 'de' ? c.label_de || c.label : c.label; } });
      row(label, 'modrow', null, function (p) {
        var td = el('td', { 'data-player': p.name, 'data-key': k });
        var c = (p.categories || {})[k];
        if (c) { add(td, el('b', {}, c.points)); }
        return td;
      });
    });
    row(w('sum'), 'sum', null, function (p) {
      var td = el('td', { 'data-player': p.name, 'data-key': 'points' });
      add(td, el('b', {}, p.points));
      return td;
    });
    row(w('total'), 'sum', null, function (p) {
      var td = el('td', { 'data-player': p.name, 'data-key': 'total' });
      add(td, el('b', { 'data-total': p.name }, p.total));
      add(td, el('span', { cls: 'cnt' }, p.total_before + ' + ' + p.points));
      return td;
    });
    if (winners && winners.length) {
      add(box, el('p', { cls: 'winners', id: 'winners' }, (winners.length > 1 ? w('winners_n') : w('winners')) + ': ' + winners.join(', ')));
    }
    return box;
  }
  function drawPlayers(answer) {
    model.players.forEach(function (p, i) {
      var pic = $('pic-' + i);
      if (!pic) { return; }
      clear(pic);
      var markup = answer.layouts[p.name];
      if (!markup) { return; }
      var svg = drawing(markup);
      if (!svg) { return; }
      pic.appendChild(svg);
      addHits(svg, p);
      answer.findings.forEach(function (f) {
        if (f.player !== p.name) { return; }
        (f.cells || []).forEach(function (at) {
          if (svg.querySelector('rect.finding[data-at="' + at + '"][data-code="' + f.code + '"]')) { return; }
          var r = cellRect(svg, at, 'finding');
          r.setAttribute('data-code', f.code);
          var t = document.createElementNS(SVGNS, 'title');
          t.textContent = f.code + ': ' + f.message;
          r.appendChild(t);
          svg.insertBefore(r, svg.querySelector('rect.hit'));
          var label = document.createElementNS(SVGNS, 'text');
          label.setAttribute('class', 'fcode');
          var c = cellKey(at), cell = +svg.getAttribute('data-cell');
          label.setAttribute('x', +svg.getAttribute('data-margin') + (c[0] - +svg.getAttribute('data-x0')) * cell + cell / 2);
          var below = svg.querySelectorAll('text.fcode[data-at="' + at + '"]').length;  // stacked upwards
          label.setAttribute('data-at', at);
          label.setAttribute('y', +svg.getAttribute('data-margin') + (+svg.getAttribute('data-y1') - c[1]) * cell + cell - 5 - 11 * below);
          label.setAttribute('text-anchor', 'middle');
          label.textContent = f.code;
          svg.insertBefore(label, svg.querySelector('rect.hit'));
        });
      });
      var card = $('player-' + i);
      var bad = answer.findings.some(function (f) { return f.player === p.name; });
      card.classList.toggle('vplayer', bad);
    });
  }
  function showLeftovers(list) {
    var out = clear($('leftover-answer'));
    list.forEach(function (l) {
      var key = l.player ? 'leftover_to' : 'leftover_none';
      var text = w(key, { tile: l.tile, field: l.field, player: l.player || '' });
      if (!l.known) { text += ' (' + w('leftover_unknown') + ')'; }
      add(out, el('li', { 'data-field': l.field }, text + (l.money ? ' — ' + l.money : '')));
    });
  }

  // ------------------------------------------------------------------ the tile picker
  function closePicker() {
    $('picker').hidden = true;
    picker = null;
  }
  function openCell(player, at) {
    picker = { player: player, at: at };
    var body = openSheet(w('cell', { at: at, name: player.name }));
    post('/api/fit', { text: positionText(), player: player.name, at: at }).then(function (answer) {
      if (!picker || picker.at !== at) { return; }
      fillPicker(body, answer, function (code, lies, held) {
        player.cells[at] = code;
        held = held || code;  // the piece as it lay (a turned piece is written as placed)
        if (lies === 'reserve') {  // the piece leaves the reserve for the cell
          var i = player.reserve.indexOf(held);
          if (i >= 0) { player.reserve.splice(i, 1); }
        } else if (lies === 'market') {  // bought from the market: the field is empty now
          Object.keys(model.market).forEach(function (k) { if (model.market[k] === held) { model.market[k] = null; } });
        }
      }, player.cells[at] ? function () { delete player.cells[at]; } : null);
    }, function (err) { add(body, el('p', { cls: 'status bad' }, w('server_error', { why: err.message }))); });
  }
  function openSupply(title, choose) {
    picker = { supply: true };
    var body = openSheet(title);
    post('/api/fit', { text: positionText() }).then(function (answer) {
      if (!picker || !picker.supply) { return; }
      fillPicker(body, answer, choose, null);
    }, function (err) { add(body, el('p', { cls: 'status bad' }, w('server_error', { why: err.message }))); });
  }
  function openSheet(title) {
    $('picker-title').textContent = title;
    var body = clear($('picker-body'));
    $('picker').hidden = false;
    add(body, el('p', { cls: 'note' }, w('working')));
    return body;
  }
  function fillPicker(body, answer, choose, empty) {
    clear(body);
    var bar = add(body, el('div', { cls: 'pickbar' }));
    var filter = null;
    var lists = [];
    function choice(t) {
      var b = el('button', { type: 'button', cls: 'choice' + (t.fits ? ' fits' : ' misfit'), 'data-code': t.code, 'data-type': TILE[t.code] ? TILE[t.code].type : '' });
      b.appendChild(tileChip(t.code));
      var why = t.used_by ? w('used_by', { name: t.used_by }) : t.problems.map(function (p) { return p.code; }).join(' ');
      add(b, el('small', {}, why || t.code));
      b.title = t.code + (t.problems.length ? ' — ' + t.problems.map(function (p) { return p.code + ': ' + p.message; }).join('; ') : '');
      if (t.used_by) { b.disabled = true; b.classList.add('used'); }
      b.addEventListener('click', function () { choose(t.code); closePicker(); changed(); });
      return b;
    }
    TYPES.concat(['']).forEach(function (code) {
      var b = add(bar, el('button', { type: 'button', cls: 'typefilter' + (code ? ' t' + code : ''), 'data-type': code }, code ? typeName(code) : w('all_types')));
      b.addEventListener('click', function () {
        filter = code || null;
        lists.forEach(function (l) {
          Array.prototype.forEach.call(l.children, function (c) { c.hidden = !!filter && c.getAttribute('data-type') !== filter; });
        });
      });
    });
    var fits = answer.tiles.filter(function (t) { return t.fits; });
    var misfits = answer.tiles.filter(function (t) { return !t.fits; });
    add(body, el('h3', {}, w('fits')));
    var good = add(body, el('div', { cls: 'choices', id: 'choices-fit' }));
    lists.push(good);
    fits.forEach(function (t) { good.appendChild(choice(t)); });
    if (!fits.length) { add(good, el('p', { cls: 'note' }, w('none'))); }
    if (misfits.length) {
      var det = add(body, el('details', { id: 'misfits' }));
      add(det, el('summary', {}, w('show_misfits') + ' (' + misfits.length + ')'));
      add(det, el('p', { cls: 'note' }, w('misfits')));
      var bad = add(det, el('div', { cls: 'choices', id: 'choices-misfit' }));
      lists.push(bad);
      misfits.forEach(function (t) { bad.appendChild(choice(t)); });
    }
    if (answer.pieces && answer.pieces.length) {
      add(body, el('h3', {}, w('pieces')));
      var mods = add(body, el('div', { cls: 'choices', id: 'choices-pieces' }));
      answer.pieces.forEach(function (t) {
        var b = add(mods, el('button', { type: 'button', cls: 'choice piece-choice' + (t.fits ? ' fits' : ' misfit'), 'data-code': t.code, 'data-fits': t.fits ? 'yes' : 'no', 'data-lies': t.lies }));
        var pic = t.picture ? drawing(t.picture) : null;
        if (pic) { pic.setAttribute('class', (pic.getAttribute('class') || '') + ' piecepic'); b.appendChild(pic); }
        add(b, el('span', { cls: 'piecename' }, lang === 'de' ? t.name_de : t.name_en));
        var why = t.fits ? w('fits_here') : t.problems.map(function (p) { return p.code; }).join(' ');
        add(b, el('small', {}, t.code + ' · ' + w('lies_' + t.lies) + ' · ' + why));
        b.title = t.code + (t.problems.length ? ' — ' + t.problems.map(function (p) { return p.code + ': ' + p.message; }).join('; ') : '');
        b.addEventListener('click', function () { choose(t.code, t.lies, t.held); closePicker(); changed(); });
      });
    }
    var kinds = [];
    (CAT.modules || []).forEach(function (m) { if (model.modules.indexOf(m.name) >= 0) { kinds = kinds.concat(m.kinds); } });
    if (kinds.length) {
      var row = add(body, el('div', { cls: 'piece' }));
      var lab = add(row, el('label', {}, w('piece', { kinds: kinds.map(function (k) { return k + ':…'; }).join(', ') })));
      var input = add(lab, el('input', { type: 'text', id: 'piece-token', maxlength: '40', autocomplete: 'off' }));
      var go = add(row, el('button', { type: 'button', id: 'piece-place' }, w('place')));
      go.addEventListener('click', function () {
        var token = input.value.replace(/\s+/g, '');
        if (!token) { return; }
        choose(token); closePicker(); changed();
      });
    }
    var foot = add(body, el('div', { cls: 'pickfoot' }));
    if (empty) {
      var rm = add(foot, el('button', { type: 'button', id: 'empty-cell' }, w('remove_tile')));
      rm.addEventListener('click', function () { empty(); closePicker(); changed(); });
    }
    var close = add(foot, el('button', { type: 'button', id: 'picker-close' }, w('close')));
    close.addEventListener('click', closePicker);
  }

  // ------------------------------------------------------------------ building the page
  function labelled(parent, text, input) {
    var lab = add(parent, el('label', { cls: 'field' }));
    add(lab, el('span', {}, text));
    lab.appendChild(input);
    return input;
  }
  function buildSetup() {
    var box = clear($('setup'));
    add(box, el('h2', {}, w('game')));
    var grid = add(box, el('div', { cls: 'setupgrid' }));
    var rules = labelled(grid, w('rules'), el('select', { id: 'rules' }));
    CAT.profiles.forEach(function (name) {
      var o = add(rules, el('option', { value: name }, name));
      if (name === (model.rules || CAT.profiles[0])) { o.selected = true; }
    });
    rules.addEventListener('change', function () { model.rules = rules.value; changed(); });
    var round = labelled(grid, w('scoring'), el('select', { id: 'round' }));
    [[3, 'final'], [2, 'scoring2'], [1, 'scoring1']].forEach(function (r) {
      var o = add(round, el('option', { value: r[0] }, w(r[1])));
      if (r[0] === model.round) { o.selected = true; }
    });
    round.addEventListener('change', function () { model.round = +round.value; changed(); });
    var names = add(box, el('div', { cls: 'names', id: 'names' }));
    add(names, el('h3', {}, w('players') + ' (2–6)'));
    model.players.forEach(function (p, i) {
      var row = add(names, el('div', { cls: 'namerow' }));
      var input = add(row, el('input', { type: 'text', id: 'name-' + i, value: p.name, maxlength: '40', 'aria-label': w('name') + ' ' + (i + 1) }));
      input.addEventListener('change', function () {
        var v = cleanName(input.value);
        var taken = model.players.some(function (q, j) { return j !== i && q.name.toLowerCase() === v.toLowerCase(); });
        if (!v || taken) { input.value = p.name; return; }
        p.name = v; input.value = v;
        buildPlayers(); changed();
      });
      if (model.players.length > 2) {
        var rm = add(row, el('button', { type: 'button', cls: 'small', 'data-remove': i }, w('remove_player')));
        rm.addEventListener('click', function () { model.players.splice(i, 1); rebuild(); });
      }
    });
    if (model.players.length < 6) {
      var addp = add(names, el('button', { type: 'button', id: 'add-player' }, w('add_player')));
      addp.addEventListener('click', function () {
        var n = model.players.length + 1;
        var name = w('player') + ' ' + n;
        while (model.players.some(function (q) { return q.name === name; })) { n += 1; name = w('player') + ' ' + n; }
        model.players.push(newPlayer(name));
        rebuild();
      });
    }
    var mods = add(box, el('details', { cls: 'mods', id: 'modules' }));
    add(mods, el('summary', {}, w('modules') + (model.modules.length ? ' (' + model.modules.join(', ') + ')' : '')));
    add(mods, el('p', { cls: 'note' }, w('module_hint')));
    var list = add(mods, el('div', { cls: 'modlist' }));
    CAT.modules.forEach(function (m) {
      var lab = add(list, el('label', {}));
      var cb = add(lab, el('input', { type: 'checkbox', value: m.name }));
      cb.checked = model.modules.indexOf(m.name) >= 0;
      add(lab, document.createTextNode(' ' + (lang === 'de' ? m.title_de : m.title_en) + ' (' + m.name + ')'));
      cb.addEventListener('change', function () {
        model.modules = CAT.modules.map(function (x) { return x.name; }).filter(function (n) {
          return n === m.name ? cb.checked : model.modules.indexOf(n) >= 0;
        });
        changed();
      });
    });
  }
  function chipButton(code, onRemove, label) {
    var b = el('button', { type: 'button', cls: 'chipbtn', 'data-code': code, title: label, 'aria-label': label });
    b.appendChild(code.length <= 4 && /^(Gu|Di|De|Du)\d$/.test(code) ? cardChip(code) : tileChip(code));
    b.addEventListener('click', onRemove);
    return b;
  }
  function cardChip(code) {
    return el('span', { cls: 'card c' + code.slice(0, 2), 'data-code': code }, code);
  }
  function buildPlayers() {
    var box = clear($('players'));
    model.players.forEach(function (p, i) {
      var card = add(box, el('article', { cls: 'player', id: 'player-' + i, 'data-player': p.name }));
      var h = add(card, el('h2', {}));
      add(h, el('span', { cls: 'pname' }, p.name));
      var sc = labelled(card, w('points_before'), el('input', { type: 'number', min: '0', max: '999', step: '1', id: 'score-' + i, value: p.score || 0, inputmode: 'numeric' }));
      sc.addEventListener('change', function () { p.score = Math.max(0, Math.min(999, parseInt(sc.value, 10) || 0)); sc.value = p.score; changed(); });
      add(card, el('p', { cls: 'note' }, w('tap_cell')));
      add(card, el('div', { cls: 'pic show-wall', id: 'pic-' + i }));
      if (p.extra.length) {
        var kept = add(card, el('div', { cls: 'row kept' }));
        add(kept, el('span', { cls: 'lbl' }, w('kept')));
        p.extra.forEach(function (line) { add(kept, el('code', {}, line)); });
      }
      if (p.reserve.length) {
        var rrow = add(card, el('div', { cls: 'row' }));
        add(rrow, el('span', { cls: 'lbl' }, w('reserve')));
        p.reserve.forEach(function (code) { rrow.appendChild(tileChip(code)); });
      }
      var hand = add(card, el('details', { cls: 'hand', id: 'hand-' + i }));
      if (p.hand.length) { hand.open = true; }
      add(hand, el('summary', {}, w('hand')));
      var chips = add(hand, el('div', { cls: 'row' }));
      p.hand.forEach(function (code, k) {
        chips.appendChild(chipButton(code, function () { p.hand.splice(k, 1); buildPlayers(); changed(); }, w('remove_card', { card: code })));
      });
      var adder = add(hand, el('div', { cls: 'row cardadd' }));
      var cur = add(adder, el('select', { id: 'cur-' + i, 'aria-label': 'currency' }));
      CURRENCIES.forEach(function (c) { add(cur, el('option', { value: c }, c)); });
      var val = add(adder, el('select', { id: 'val-' + i, 'aria-label': 'value' }));
      for (var v = 1; v <= 9; v++) { add(val, el('option', { value: v }, v)); }
      var go = add(adder, el('button', { type: 'button', id: 'addcard-' + i }, w('add_card')));
      go.addEventListener('click', function () { p.hand.push(cur.value + val.value); buildPlayers(); changed(); });
    });
    if (last && last.ok) { drawPlayers(last); }
    buildDirk();
  }
  function buildDirk() {
    var box = clear($('dirkbox'));
    box.hidden = model.players.length !== 2;
    if (box.hidden) { return; }
    add(box, el('h2', {}, w('dirk')));
    add(box, el('p', { cls: 'note' }, w('dirk_help')));
    var row = add(box, el('div', { cls: 'row', id: 'dirk-tiles' }));
    model.dirk.forEach(function (code, k) {
      row.appendChild(chipButton(code, function () { model.dirk.splice(k, 1); buildDirk(); changed(); }, code));
    });
    var b = add(box, el('button', { type: 'button', id: 'dirk-add' }, w('add_tile')));
    b.addEventListener('click', function () {
      openSupply(w('dirk_tile'), function (code) { model.dirk.push(code); buildDirk(); });
    });
  }
  function buildLeftovers() {
    var box = clear($('leftbox'));
    var det = add(box, el('details', { id: 'leftovers' }));
    if (CURRENCIES.some(function (c) { return model.market[c]; })) { det.open = true; }
    add(det, el('summary', {}, w('leftovers')));
    add(det, el('p', { cls: 'note' }, w('leftovers_help')));
    var row = add(det, el('div', { cls: 'slots' }));
    CURRENCIES.forEach(function (c) {
      var slot = add(row, el('div', { cls: 'slot' }));
      add(slot, el('div', {}, c));
      var b = add(slot, el('button', { type: 'button', cls: 'chipbtn', id: 'market-' + c }));
      b.appendChild(model.market[c] ? tileChip(model.market[c]) : el('span', { cls: 'tile empty' }, '+'));
      b.addEventListener('click', function () {
        if (model.market[c]) { model.market[c] = null; buildLeftovers(); changed(); return; }
        openSupply(w('market_field', { field: c }), function (code) { model.market[c] = code; buildLeftovers(); });
      });
    });
    add(det, el('ul', { id: 'leftover-answer', cls: 'leftover' }));
  }
  function buildText() {
    var box = clear($('textbox'));
    add(box, el('h2', {}, w('text')));
    var help = add(box, el('p', { cls: 'note' }, w('text_help') + ' '));
    add(help, el('code', { id: 'text-command' }, 'alhambra-referee score FILE'));
    var ta = add(box, el('textarea', { id: 'position-text', readonly: 'readonly', rows: '12', spellcheck: 'false' }));
    ta.value = positionText();
    var copy = add(box, el('button', { type: 'button', id: 'copy' }, w('copy')));
    var said = add(box, el('span', { cls: 'note', id: 'copy-note' }));
    copy.addEventListener('click', function () {
      ta.select();
      var done = function () { said.textContent = w('copied'); };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(ta.value).then(done, function () { document.execCommand('copy'); done(); });
      } else { document.execCommand('copy'); done(); }
    });
    add(box, el('h3', {}, w('load')));
    add(box, el('p', { cls: 'note' }, w('load_help')));
    var paste = add(box, el('textarea', { id: 'load-text', rows: '6', spellcheck: 'false' }));
    var file = labelled(box, w('file'), el('input', { type: 'file', id: 'load-file', accept: '.alh,.txt,text/plain' }));
    file.addEventListener('change', function () {
      var f = file.files && file.files[0];
      if (!f || f.size > 20000) { return; }
      f.text().then(function (t) { paste.value = t; });
    });
    var load = add(box, el('button', { type: 'button', id: 'load' }, w('load_button')));
    var note = add(box, el('span', { cls: 'note', id: 'load-note' }));
    load.addEventListener('click', function () {
      note.textContent = w('working');
      var mine = ++seq;
      post('/api/score', { text: paste.value, round: model.round }).then(function (answer) {
        if (mine !== seq) { return; }
        if (!answer.ok) { note.textContent = ''; showAnswer(answer); return; }
        takeModel(answer.model);
        note.textContent = w('loaded');
        rebuild();
      }, function (err) { note.textContent = w('server_error', { why: err.message }); });
    });
  }
  function takeModel(m) {
    var players = m.players.slice(0, 6).map(function (p) {
      return { name: p.name, score: p.score || 0, hand: p.hand || [], reserve: p.reserve || [], cells: p.cells || {}, extra: p.extra || [] };
    });
    if (players.length < 2) { return; }
    model.players = players;
    model.event = m.event || '';
    model.rules = m.rules || '';
    model.modules = (m.modules || '').split(',').map(function (s) { return s.trim(); }).filter(Boolean);
    model.round = m.scorings !== null && m.scorings !== undefined && m.scorings < 3 ? m.scorings + 1 : 3;
    model.dirk = m.dirk || [];
    model.market = { Gu: null, Di: null, De: null, Du: null };
    Object.keys(m.market || {}).forEach(function (c) { if (c in model.market) { model.market[c] = m.market[c]; } });
    model.extra = m.extra || [];
  }
  function rebuild() {
    document.documentElement.lang = lang;
    document.body.setAttribute('data-lang', lang);
    document.title = w('title') + ' — alhambra-referee';
    $('title').textContent = w('title');
    $('intro').textContent = w('intro');
    $('result-title').textContent = w('result');
    $('foot').textContent = 'alhambra-referee serve';
    ['en', 'de'].forEach(function (l) { $('lang-' + l).setAttribute('aria-pressed', l === lang ? 'true' : 'false'); });
    buildSetup();
    buildPlayers();
    buildLeftovers();
    buildText();
    changed();
  }

  ['en', 'de'].forEach(function (l) {
    $('lang-' + l).addEventListener('click', function () {
      lang = l;
      if (history.replaceState) { history.replaceState(null, '', '?lang=' + l); }
      rebuild();
    });
  });
  $('picker').addEventListener('click', function (e) { if (e.target === $('picker')) { closePicker(); } });
  document.addEventListener('keydown', function (e) { if (e.key === 'Escape' && picker) { closePicker(); } });

  fetch('/api/catalogue').then(function (r) { return r.json(); }).then(function (cat) {
    CAT = cat;
    cat.tiles.forEach(function (t) { TILE[t.code] = t; });
    model.rules = cat.profiles[0];
    rebuild();
  }, function () { showError(w('offline')); });
}());
