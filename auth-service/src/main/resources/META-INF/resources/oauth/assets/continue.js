// The steps of a sign-in with another provider that need no decision: the answer a provider sent
// back is posted here (same site, so the sign-in's cookies go with it; a GET changes nothing), and
// the way to the provider the person chose is followed. Without scripts the person presses the
// button or follows the link.
(function () {
  var form = document.getElementById('continue_form');
  if (form && form.getAttribute('data-autosubmit') === 'true') {
    form.submit();
  }
  var onward = document.getElementById('to_provider');
  if (onward && onward.getAttribute('data-autofollow') === 'true') {
    window.location.assign(onward.getAttribute('href'));
  }
})();
