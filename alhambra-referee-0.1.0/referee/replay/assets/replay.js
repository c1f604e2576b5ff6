/* The HTML replay: puts the chosen step together from the page's JSON (#replay-data).
   No network, no libraries. Every figure comes from the engine's replay; nothing here
   knows a rule of the game. */
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('replay-data').textContent);
  var U = D.ui;
  var N = D.steps.length;
  var cur = -1;
  var $ = function (id) { return document.getElementById(id); };
  var slider = $('slider');
  var afterTurn = {};  // step -> "after turn N" (the moment `show --at N` names)
  Object.keys(D.turn_steps).forEach(function (n) {
    var i = D.turn_steps[n];
    if (afterTurn[i] === undefined || +n > afterTurn[i]) { afterTurn[i] = +n; }
  });
  var lines = $('lines');

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function fmt(key, params) {
    var s = U[key] || key;
    Object.keys(params || {}).forEach(function (k) { s = s.split('{' + k + '}').join(params[k]); });
    return s;
  }
  function tileChip(code) {
    if (code === null || code === undefined) {
      return '<span class="tile empty" data-code="">–</span>';
    }
    if (code === '?') { return '<span class="tile unk" data-code="?">?</span>'; }
    var info = D.tiles[code];
    if (!info) {
      var pc = (D.pieces || {})[code];
      if (!pc) { return '<span class="tile mod" data-code="' + esc(code) + '">' + esc(code) + '</span>'; }
      var pw = pc[2].split('').map(function (c) { return ' w' + c; }).join('');
      return '<span class="tile mod' + pw + '" data-code="' + esc(code) + '" style="background:' + esc(pc[1]) +
        '" title="' + esc(pc[0] + ' (' + code + ')') + '"><b class="lbl">' + esc(pc[3]) + '</b><i>' +
        esc(code.split(':')[0]) + '</i></span>';
    }
    var walls = info[2].split('').map(function (c) { return ' w' + c; }).join('');
    return '<span class="tile t' + info[0] + walls + '" data-code="' + esc(code) + '" data-full="' +
      esc(info[4]) + '" title="' +
      esc(info[3] + ' ' + info[1] + ' (' + code + ')') + '"><b>' + info[1] + '</b><i>' +
      esc(info[0]) + '</i></span>';
  }
  function cardChip(code) {
    if (code === '?') { return '<span class="card unk" data-code="?">?</span>'; }
    var m = /^(Gu|Di|De|Du)(\d+)$/.exec(code);
    var cls = m ? ' c' + m[1] : '';
    var title = m ? ' title="' + esc(D.currencies[m[1]] + ' ' + m[2]) + '"' : '';
    return '<span class="card' + cls + '" data-code="' + esc(code) + '"' + title + '>' + esc(code) + '</span>';
  }
  function chips(list, f) {
    if (!list || !list.length) { return '<span class="note">–</span>'; }
    return list.map(f).join(' ');
  }
  function value(v) {
    if (v === null || v === undefined) { return '–'; }
    if (Array.isArray(v)) { return v.length ? v.map(value).join(', ') : '–'; }
    if (typeof v === 'object') {
      return Object.keys(v).map(function (k) { return esc(k) + ': ' + value(v[k]); }).join('; ');
    }
    return esc(v);
  }
  function cellValue(v) {  // a list as one item a line, a map as a small table of its own
    if (Array.isArray(v) && v.length > 1) {
      return '<ul class="vals">' + v.map(function (x) { return '<li>' + value(x) + '</li>'; }).join('') + '</ul>';
    }
    if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length) {
      return '<table class="sub"><tbody>' + Object.keys(v).map(function (k) {
        return '<tr><th scope="row">' + esc(k) + '</th><td>' + value(v[k]) + '</td></tr>';
      }).join('') + '</tbody></table>';
    }
    return value(v);
  }
  function legendHtml(st) {  // every colour the Alhambras of this position use, named
    var used = [];
    st.players.forEach(function (p) {
      (D.legends[p.layout] || []).forEach(function (k) { if (used.indexOf(k) < 0) { used.push(k); } });
    });
    if (!used.length) { return ''; }
    return '<span class="lbl">' + esc(U.legend) + ':</span> ' + used.map(function (k) {
      var c = D.colours[k];
      return '<span class="key"><i class="sw" style="background:' + esc(c[0]) + '"></i>' + esc(c[1]) + '</span>';
    }).join(' ');
  }
  function label(view, name) {
    var l = view.labels;
    if (l && typeof l === 'object') { return l[D.lang] || l.en || name; }
    return name;
  }
  function moduleHtml(name, view) {
    var out = '<div class="module" data-module="' + esc(name) + '"><h2>' + esc(label(view, name)) + '</h2>';
    var table = view.table;
    var rest = {};
    Object.keys(view).forEach(function (k) {
      if (k !== 'labels' && k !== 'table' && k !== 'players') { rest[k] = view[k]; }
    });
    [table, rest].forEach(function (map) {
      if (map && typeof map === 'object' && Object.keys(map).length) {
        out += '<div class="tscroll"><table class="kv"><tbody>' + Object.keys(map).map(function (k) {
          return '<tr><th scope="row">' + esc(k) + '</th><td>' + cellValue(map[k]) + '</td></tr>';
        }).join('') + '</tbody></table></div>';
      }
    });
    var players = view.players;
    if (players && typeof players === 'object' && Object.keys(players).length) {
      var cols = [];
      Object.keys(players).forEach(function (p) {
        var row = players[p];
        if (row && typeof row === 'object' && !Array.isArray(row)) {
          Object.keys(row).forEach(function (k) { if (cols.indexOf(k) < 0) { cols.push(k); } });
        }
      });
      out += '<div class="tscroll"><table><thead><tr><th></th>';
      if (cols.length) {
        out += cols.map(function (c) { return '<th>' + esc(c) + '</th>'; }).join('');
      } else {
        out += '<th></th>';
      }
      out += '</tr></thead><tbody>';
      Object.keys(players).forEach(function (p) {
        var row = players[p];
        out += '<tr data-player="' + esc(p) + '"><th>' + esc(p) + '</th>';
        if (cols.length && row && typeof row === 'object' && !Array.isArray(row)) {
          out += cols.map(function (c) { return '<td>' + cellValue(row[c]) + '</td>'; }).join('');
        } else {
          out += '<td>' + cellValue(row) + '</td>';
        }
        out += '</tr>';
      });
      out += '</tbody></table></div>';
    }
    return out + '</div>';
  }
  function where(step) {
    if (step.kind === 'start') { return U.start; }
    if (step.kind === 'end') { return U.end; }
    return U.line + ' ' + step.line;
  }
  function highlight(svg, at, cls) {
    var x0 = +svg.getAttribute('data-x0'), y1 = +svg.getAttribute('data-y1');
    var cell = +svg.getAttribute('data-cell'), margin = +svg.getAttribute('data-margin');
    var m = /^(-?\d+),(-?\d+)$/.exec(at);
    if (!m) { return; }
    var r = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    r.setAttribute('x', margin + (+m[1] - x0) * cell + 3);
    r.setAttribute('y', margin + (y1 - +m[2]) * cell + 3);
    r.setAttribute('width', cell - 6);
    r.setAttribute('height', cell - 6);
    r.setAttribute('class', cls);
    r.setAttribute('data-at', at);
    svg.appendChild(r);
  }

  function render(i) {
    var step = D.steps[i];
    var st = D.states[step.state];
    var scoring = !!(step.scorings && step.scorings.length);
    document.body.classList.toggle('show-wall', scoring);
    document.body.setAttribute('data-step', i);
    // what happened, and who moves next
    var who = '';
    if (step.turn !== null || step.player) {
      who = '<b>' + (step.turn !== null ? esc(step.turn) + '. ' : '') + esc(step.player || '') + ':</b> ';
    }
    var move = st.over ? U.over : (st.to_move ? fmt('to_move', { player: esc(st.to_move) }) : U.nobody);
    $('now').innerHTML = '<div class="what"><span class="note">' + esc(where(step)) + '</span> ' + who +
      esc(step.words) + (step.text ? '<br><code>' + esc(step.text) + '</code>' : '') + '</div>' +
      '<div class="move" id="tomove">' + move + '</div>';
    // findings of this step
    var f = '';
    (step.violations || []).forEach(function (v) {
      f += '<div class="v ' + esc(v.severity) + '" data-code="' + esc(v.code) + '"><span class="code">' + esc(v.code) +
        '</span> ' + esc(v.name) + (v.severity === 'warning' ? ' (' + esc(U.warning) + ')' : '') +
        ' <span class="sec">[' + esc(v.section) + ']</span><br>' +
        '<span class="sec">' + esc(v.where) + (v.turn !== null ? ' · ' + esc(fmt('turn', { n: v.turn })) : '') +
        (v.player ? ' · ' + esc(v.player) : '') + '</span><br>' + esc(v.message) + '</div>';
    });
    (step.unverifiable || []).forEach(function (u) {
      f += '<div class="u"><b>' + esc(U.unverifiable) + ':</b> ' + esc(u) + '</div>';
    });
    if (!f) { f = '<p class="ok">' + esc(U.no_findings) + '</p>'; }
    $('findings').innerHTML = f;
    // scoring breakdown
    $('scoring').innerHTML = scoring ? step.scorings.map(function (k) { return D.scorings[k]; }).join('') +
      '<p class="note"><i class="sw gold"></i>' + esc(U.wall_legend) + '</p>' : '';
    // market, display, supply
    var cur4 = ['Gu', 'Di', 'De', 'Du'];
    $('market').innerHTML = '<h2>' + esc(U.market) + '</h2><div class="slots">' + st.market.map(function (code, k) {
      return '<div class="slot" data-field="' + cur4[k] + '">' + tileChip(code) + '<br>' + esc(D.currencies[cur4[k]]) + '</div>';
    }).join('') + '</div>';
    $('display').innerHTML = '<h2>' + esc(U.display) + '</h2><div class="slots">' + chips(st.display, cardChip) + '</div>';
    var sup = '<h2>' + esc(U.deck) + ' / ' + esc(U.bag) + '</h2><div>' +
      esc(U.deck) + ': ' + esc(fmt(st.deck_uncertain ? 'unknown_n' : 'deck_n', { n: st.deck })) + ' · ' +
      esc(U.discard) + ': ' + esc(fmt('deck_n', { n: st.discard })) + ' · ' +
      esc(U.bag) + ': ' + esc(fmt(st.bag_uncertain ? 'unknown_n' : 'bag_n', { n: st.bag })) + '</div>';
    if (st.dirk) { sup += '<div>' + esc(U.dirk) + ': ' + chips(st.dirk, tileChip) + '</div>'; }
    $('supply').innerHTML = sup;
    // players
    var html = '';
    st.players.forEach(function (p) {
      var cls = 'player' + (p.name === st.to_move && !st.over ? ' tomove' : '');
      html += '<article class="' + cls + '" data-player="' + esc(p.name) + '" data-tiles="' + p.tiles + '">' +
        '<h2><span>' + esc(p.name) + (p.name === st.to_move && !st.over ? ' <span class="badge">' +
        esc(U.badge) + '</span>' : '') + '</span><span class="score" data-score="' + p.score + '">' +
        p.score + ' ' + esc(U.points) + '</span></h2>' +
        '<div class="pic">' + D.layouts[p.layout] + '</div>' +
        '<div class="row note">' + esc(fmt('tiles_built', { n: p.tiles })) +
        (p.unknown ? ' ' + esc(fmt('unknown_tiles', { n: p.unknown })) : '') + '</div>' +
        '<div class="row reserve"><span class="lbl">' + esc(U.reserve) + '</span>' + chips(p.reserve, tileChip) + '</div>' +
        '<div class="row hand"><span class="lbl">' + esc(U.hand) + '</span>' + chips(p.hand, cardChip) + '</div>' +
        '</article>';
    });
    $('players').innerHTML = html;
    $('legend').innerHTML = legendHtml(st);
    // modules, each through its own view
    var mods = st.modules || {};
    $('modules').innerHTML = Object.keys(mods).map(function (k) { return moduleHtml(k, mods[k]); }).join('');
    // what the findings concern
    (step.violations || []).forEach(function (v) {
      var box = null;
      if (v.player) {
        box = document.querySelector('.player[data-player="' + (window.CSS && CSS.escape ? CSS.escape(v.player) : v.player) + '"]');
      }
      if (box) {
        box.classList.add('vplayer');
        var svg = box.querySelector('svg.alh');
        if (svg) {
          v.at.forEach(function (a) { highlight(svg, a, 'hl'); });
          v.cells.forEach(function (a) { highlight(svg, a, 'hl2'); });
        }
      }
      var scope = [$('market'), $('display')];
      if (box) { scope.push(box); }
      (v.codes || []).forEach(function (code) {
        scope.forEach(function (el) {
          el.querySelectorAll('[data-code]').forEach(function (chip) {
            if (chip.getAttribute('data-code') === code || chip.getAttribute('data-full') === code) {
              chip.classList.add('hlc');
            }
          });
        });
      });
    });
  }

  function go(i) {
    i = Math.max(0, Math.min(N - 1, i | 0));
    if (i === cur) { return; }
    var old = cur >= 0 ? $('ln' + cur) : null;
    if (old) { old.classList.remove('cur'); old.removeAttribute('aria-current'); }
    cur = i;
    render(i);
    slider.value = i;
    var li = $('ln' + i);
    li.classList.add('cur');
    li.setAttribute('aria-current', 'step');
    if (li.offsetTop < lines.scrollTop || li.offsetTop + li.offsetHeight > lines.scrollTop + lines.clientHeight) {
      lines.scrollTop = Math.max(0, li.offsetTop - lines.clientHeight / 3);
    }
    var step = D.steps[i];
    $('stepinfo').innerHTML = esc(fmt('step', { i: i, n: N - 1 }) + ' · ' + where(step)) +
      (step.turn !== null ? ' · <a class="turnlink" href="#t' + esc(step.turn) + '" title="' + esc(U.turn_link) +
        '">' + esc(fmt('turn', { n: step.turn })) + '</a>' : '') +
      (afterTurn[i] !== undefined ? ' · ' + esc(fmt('after_turn', { n: afterTurn[i] })) : '');
    $('first').disabled = $('prev').disabled = i === 0;
    $('last').disabled = $('next').disabled = i === N - 1;
    var hash = step.turn !== null && D.turn_lines[step.turn] === i ? '#t' + step.turn : '#s' + i;
    if (location.hash !== hash) {
      try { history.replaceState(null, '', hash); } catch (e) { /* a file: URL may refuse */ }
    }
  }
  // #s12: step 12; #t12: the line of turn 12 (followed when the address changes, too)
  function fromHash() {
    var m = /^#s(\d+)$/.exec(location.hash);
    if (m) { return +m[1]; }
    m = /^#t(\d+)$/.exec(location.hash);
    if (m && D.turn_lines[m[1]] !== undefined) { return D.turn_lines[m[1]]; }
    return null;
  }

  $('first').addEventListener('click', function () { go(0); });
  $('prev').addEventListener('click', function () { go(cur - 1); });
  $('next').addEventListener('click', function () { go(cur + 1); });
  $('last').addEventListener('click', function () { go(N - 1); });
  slider.addEventListener('input', function () { go(+slider.value); });
  lines.addEventListener('click', function (e) {
    var li = e.target.closest ? e.target.closest('li[data-step]') : null;
    if (li) { go(+li.getAttribute('data-step')); }
  });
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target === slider) { return; }
    var k = e.key;
    if (k === 'ArrowRight' || k === 'ArrowDown') { go(cur + 1); } else if (k === 'ArrowLeft' || k === 'ArrowUp') {
      go(cur - 1);
    } else if (k === 'Home') { go(0); } else if (k === 'End') { go(N - 1); } else { return; }
    e.preventDefault();
  });
  window.addEventListener('hashchange', function () {
    var h = fromHash();
    if (h !== null) { go(h); }
  });
  var h0 = fromHash();
  go(h0 !== null ? h0 : D.start);
}());
