// Passkeys on the sign-in and account pages (W3C WebAuthn). A button in a form carries the
// ceremony's options (data-options, made by the server) and the action to post (data-action); the
// browser's answer goes back in the form, as its "credential" field. Nothing else runs, and nothing
// is fetched: the page's CSP allows this file alone.
(function () {
  'use strict';
  var supported = window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON
      && PublicKeyCredential.parseRequestOptionsFromJSON;
  var buttons = document.querySelectorAll('button[data-ceremony]');
  Array.prototype.forEach.call(buttons, function (button) {
    if (!supported) {
      button.hidden = true;
      return;
    }
    button.addEventListener('click', function (event) {
      event.preventDefault();
      var form = button.form;
      var error = document.getElementById('passkey_error');
      if (form.reportValidity && button.getAttribute('data-ceremony') === 'create' && !form.reportValidity()) {
        return;
      }
      var options = JSON.parse(button.getAttribute('data-options'));
      var ceremony = button.getAttribute('data-ceremony') === 'create'
          ? navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) })
          : navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
      ceremony.then(function (credential) {
        var field = form.querySelector('input[name=credential]');
        if (!field) {
          field = document.createElement('input');
          field.type = 'hidden';
          field.name = 'credential';
          form.appendChild(field);
        }
        field.value = JSON.stringify(credential.toJSON());
        form.querySelector('input[name=action]').value = button.getAttribute('data-action');
        form.submit();
      }).catch(function (reason) {
        if (error) {
          error.textContent = 'No passkey was used (' + (reason && reason.name ? reason.name : 'cancelled') + ').';
          error.hidden = false;
        }
      });
    });
  });
})();
