// The console's hand-written script (charts.js aside): the preference editor's add, remove and reorder, showing
// the right count fields, and the what-if form's sending only what changed. Everything else is server-rendered
// and refreshed by htmx.
const MAX_ENTRIES = 5;

function renumber(list) {
  list.querySelectorAll('[data-entry]').forEach((row, index) => {
    row.querySelectorAll('[data-name]').forEach((input) => {
      input.name = `entries[${index}].${input.dataset.name}`;
      const kind = input.dataset.name === 'instanceType' ? 'type' : input.dataset.name === 'instanceCount' ? 'count' : 'plan';
      input.id = `entry-${kind}-${index}`;
      const label = row.querySelector(`label[for^="entry-${kind}-"]`);
      if (label) label.htmlFor = input.id;
      if (input.hasAttribute('hx-target')) input.setAttribute('hx-target', `#hint-${index}`);
    });
    const hint = row.querySelector('.hint');
    if (hint) hint.id = `hint-${index}`;
  });
  const add = list.parentElement.querySelector('[data-add]');
  if (add) add.disabled = list.querySelectorAll('[data-entry]').length >= MAX_ENTRIES;
}

function showCounts(form) {
  const uniform = form.querySelector('[data-uniform]');
  if (!uniform) return;
  form.classList.toggle('uniform', uniform.checked);
}

function wire(editor) {
  if (editor.dataset.wired) return;
  editor.dataset.wired = 'true';
  const list = editor.querySelector('[data-entries]');
  editor.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (!button) return;
    const row = button.closest('[data-entry]');
    if (button.hasAttribute('data-add')) {
      const rows = list.querySelectorAll('[data-entry]');
      if (rows.length >= MAX_ENTRIES) return;
      const copy = rows[rows.length - 1].cloneNode(true);
      copy.querySelectorAll('input').forEach((input) => { input.value = ''; });
      copy.querySelectorAll('select').forEach((select) => { select.selectedIndex = 0; });
      copy.querySelectorAll('.error, .hint').forEach((p) => { p.textContent = ''; });
      list.appendChild(copy);
      renumber(list);
      if (window.htmx) window.htmx.process(copy);
      copy.querySelector('input').focus();
    } else if (button.hasAttribute('data-remove') && list.querySelectorAll('[data-entry]').length > 1) {
      row.remove();
      renumber(list);
    } else if (button.hasAttribute('data-up') && row.previousElementSibling) {
      list.insertBefore(row, row.previousElementSibling);
      renumber(list);
      button.focus();
    } else if (button.hasAttribute('data-down') && row.nextElementSibling) {
      list.insertBefore(row.nextElementSibling, row);
      renumber(list);
      button.focus();
    }
  });
  const form = editor.closest('form');
  form.addEventListener('change', () => showCounts(form));
  showCounts(form);
  renumber(list);
}

document.querySelectorAll('.editor').forEach(wire);
// Explain redraws the whole form when the request breaks rules, so its editor is wired again.
document.addEventListener('htmx:load', (event) => event.detail.elt.querySelectorAll('.editor').forEach(wire));


// A form marked data-changed-only sends only the settings changed from their live value (data-was): the what-if
// form shows every setting of the platform, and a multipart form may have only so many parts. The server treats
// a setting equal to its live value as unchanged anyway, so a browser without this script sends more, not other.
function normalized(text) {
  return String(text ?? '').split(/\r?\n/).map((line) => line.replace(/\s+/g, '')).filter(Boolean).sort().join('\n');
}

function unchanged(input) {
  if (input.type === 'checkbox') return input.checked === (input.dataset.was === 'on');
  return normalized(input.value) === normalized(input.dataset.was);
}

document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!form.matches('form[data-changed-only]')) return;
  form.querySelectorAll('[data-edit]').forEach((input) => { input.disabled = unchanged(input); });
});
// Coming back to the page (the browser's back button) finds the inputs as they were, not disabled.
window.addEventListener('pageshow', () => {
  document.querySelectorAll('form[data-changed-only] [data-edit]').forEach((input) => { input.disabled = false; });
});
