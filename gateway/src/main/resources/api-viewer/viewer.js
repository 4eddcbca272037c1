// Starts Swagger UI on the merged OpenAPI document. A file of its own, not an inline script: the
// page's Content-Security-Policy runs scripts from this origin only.
window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-openapi'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    // Tags start collapsed: expanded, Swagger UI 5 drew only the first tag of the platform's 140
    // operations (and none of the others, in Chromium), so the reference showed one part of the API.
    docExpansion: 'none',
    // The token a person pastes under "Authorize" stays in this page's memory, never in storage.
    persistAuthorization: false,
    oauth2RedirectUrl: root.getAttribute('data-oauth2-redirect'),
    validatorUrl: null,
    tryItOutEnabled: false
  });
});
