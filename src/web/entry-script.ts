// The entry page's script, served by Milepost (web/assets.ts): its like, unlike, comment and
// delete-comment forms answer in place, and new comments and likes appear while the page is open.
// Both go through what every client uses: the forms post where they post without script (the answer is
// the entry page, whose marked parts replace the shown ones), and the live parts come from the
// `entryComments` and `entryLikes` subscriptions over server-sent events (graphql-sse's client, as the
// logged-in session, or anonymously). Without script every form still works by reloading the page.
export const ENTRY_SCRIPT = `(function () {
  var root = document.querySelector('[data-entry]');
  if (!root || !window.fetch || !window.DOMParser) return;
  var entryId = root.getAttribute('data-entry');
  var status = document.getElementById('live-status');
  function say(text) { if (status) status.textContent = text; }

  /** Whether the reader is in the middle of something in a part: an edit opened, a field being typed in. */
  function busy(part) {
    var active = document.activeElement;
    return !!part.querySelector('details[open]') || (part.contains(active) && /^(TEXTAREA|INPUT|SELECT)$/.test(active.tagName));
  }

  /**
   * Puts the marked parts of a fresh copy of the page in place of the shown ones (all, or those named).
   * \`spare\`: leave a part the reader is busy in as it is (a live update never eats an edit being typed);
   * answers whether one was left.
   */
  function swap(text, only, spare) {
    var fresh = new DOMParser().parseFromString(text, 'text/html');
    var left = false;
    document.querySelectorAll('[data-live]').forEach(function (shown) {
      var name = shown.getAttribute('data-live');
      if (only && only.indexOf(name) < 0) return;
      if (spare && busy(shown)) { left = true; return; }
      var next = fresh.querySelector('[data-live="' + name + '"]');
      if (next) shown.replaceWith(document.importNode(next, true));
    });
    bind();
    return left;
  }

  function bind() {
    document.querySelectorAll('form[data-inplace]').forEach(function (form) {
      if (form.hasAttribute('data-bound')) return;
      form.setAttribute('data-bound', '');
      form.addEventListener('submit', function (event) {
        event.preventDefault();
        var button = form.querySelector('button');
        if (button) button.disabled = true;
        var done = form.getAttribute('data-inplace');
        var focus = form.getAttribute('data-focus');
        fetch(form.action, {
          method: 'POST',
          body: new URLSearchParams(new FormData(form)),
          headers: { accept: 'text/html' },
          credentials: 'same-origin',
        })
          .then(function (response) {
            if (!/text\\/html/.test(response.headers.get('content-type') || '')) {
              if (button) button.disabled = false;
              say('Not sent: the server answered ' + response.status + '. Try again in a moment.');
              return;
            }
            return response.text().then(function (text) {
              swap(text);
              say(response.ok ? done : 'Not sent: see the message above the comment box.');
              var target = document.querySelector(focus || '[data-live="actions"] button');
              if (target) target.focus();
            });
          })
          .catch(function () {
            if (button) button.disabled = false;
            say('Not sent: the connection failed. Try again.');
          });
      });
    });
  }
  bind();

  // live: a new comment or like refreshes the comments, likes and counts (never the comment being typed)
  if (!window.graphqlSse) return;
  var waiting = null;
  function refresh() {
    if (waiting) return;
    waiting = setTimeout(function () {
      waiting = null;
      // the page as the reader has it: the older comments they went back to stay in front of them
      fetch(location.pathname + location.search, { headers: { accept: 'text/html' }, credentials: 'same-origin' })
        .then(function (response) { return response.ok ? response.text() : null; })
        // a part left because the reader was busy in it is brought up to date a little later
        .then(function (text) { if (text && swap(text, ['card', 'comments', 'likes'], true)) setTimeout(refresh, 2000); })
        .catch(function () {});
    }, 250);
  }
  var client = graphqlSse.createClient({ url: '/graphql', credentials: 'same-origin', retryAttempts: 1000 });
  var listening = 0;
  ['entryComments', 'entryLikes'].forEach(function (field) {
    client.subscribe(
      { query: 'subscription Live($id: ID!) { ' + field + '(entryId: $id) { id } }', variables: { id: entryId } },
      { next: refresh, error: function () {}, complete: function () {} },
      // how many of the page's subscriptions are open, on the page (what a test waits for)
      { connected: function (again) { if (!again) root.setAttribute('data-listening', String(++listening)); } }
    );
  });
})();
`;
