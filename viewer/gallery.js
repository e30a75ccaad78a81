// The gallery's filter box: shows the rows whose file name contains what is typed.
(function () {
  'use strict';
  var filter = document.getElementById('filter');
  var shown = document.getElementById('shown');
  var rows = Array.prototype.slice.call(document.querySelectorAll('#files tbody tr'));
  function apply() {
    var words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    var count = 0;
    rows.forEach(function (row) {
      var path = row.getAttribute('data-path').toLowerCase();
      var match = words.every(function (w) { return path.indexOf(w) >= 0; });
      row.hidden = !match;
      if (match) count++;
    });
    shown.textContent = count + ' of ' + rows.length + ' shown';
  }
  filter.addEventListener('input', apply);
  apply();
})();
