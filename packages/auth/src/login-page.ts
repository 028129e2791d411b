/** What the login page shows. */
export interface LoginPageModel {
  /** The user of the request's session, when there is one. */
  signedInAs: string | null;
  /** Buttons of the browser sign-on methods (CAS, SAML2) that are configured. */
  signOn: readonly { path: string; label: string }[];
  /** A message about the previous attempt, already chosen by the server (never text from the request). */
  error: string | null;
  /** Where to go after login (a local path). */
  next: string;
  /** The user name to fill in again after a failed attempt. */
  username: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Messages for the `?error=` codes sign-on callbacks send back to the login page. */
export const loginErrors: Readonly<Record<string, string>> = {
  credentials: 'Wrong user name or password.',
  missing: 'Enter a user name and a password.',
  signon: 'Sign-on failed: the identity provider’s answer was refused. Try again or contact your administrator.',
  disabled: 'Sign-on is not available: the identity provider is not configured.',
  unavailable: 'Sign-on is not available right now: the identity provider cannot be reached. Try again later.',
};

/** A plain, accessible HTML page: labelled fields, one heading, errors announced to screen readers, no script. */
export function renderLoginPage(model: LoginPageModel): string {
  const next = escapeHtml(model.next);
  const nextQuery = model.next === '/login' ? '' : `?next=${encodeURIComponent(model.next)}`;
  const body: string[] = [];
  if (model.signedInAs !== null) {
    body.push(`<p id="signed-in">You are signed in as <strong>${escapeHtml(model.signedInAs)}</strong>.</p>`, '<p><a href="/logout">Sign out</a></p>');
  } else {
    if (model.error !== null) body.push(`<p id="login-error" role="alert" class="error">${escapeHtml(model.error)}</p>`);
    body.push(
      `<form method="post" action="/auth"${model.error === null ? '' : ' aria-describedby="login-error"'}>`,
      `<input type="hidden" name="next" value="${next}">`,
      '<p><label for="username">User name</label><br>',
      `<input id="username" name="username" type="text" autocomplete="username" required autofocus value="${escapeHtml(model.username)}"></p>`,
      '<p><label for="password">Password</label><br>',
      '<input id="password" name="password" type="password" autocomplete="current-password" required></p>',
      '<p><button type="submit">Sign in</button></p>',
      '</form>',
    );
    if (model.signOn.length > 0) {
      body.push('<nav aria-label="Other ways to sign in"><ul>');
      for (const method of model.signOn) body.push(`<li><a class="button" href="${escapeHtml(method.path + nextQuery)}">${escapeHtml(method.label)}</a></li>`);
      body.push('</ul></nav>');
    }
  }
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Sign in · Vigie</title>',
    '<style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:3rem auto;padding:0 1rem;line-height:1.5}',
    'input{font:inherit;width:100%;padding:.4rem;box-sizing:border-box}button,.button{font:inherit;display:inline-block;padding:.4rem 1rem}',
    'ul{list-style:none;padding:0}.error{color:#a00000;font-weight:bold}:focus{outline:3px solid #1a5fb4;outline-offset:2px}</style>',
    '</head>',
    '<body>',
    '<main>',
    '<h1>Sign in to Vigie</h1>',
    ...body,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
