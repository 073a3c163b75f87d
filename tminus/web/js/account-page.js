// The account page: sign in or sign up; signed in, the account's name, e-mail and reminders,
// its password, signing out, the export of its games, and deleting it.
import { el } from "./util.js";
import { account, holdMySeats, renderNav, request, setAccount } from "./account.js";

const $ = (id) => document.getElementById(id);
const main = $("account");

// Where to go once signed in (a page of this site only): the page the person came from.
function nextPage() {
  const next = new URLSearchParams(location.search).get("next");
  return next && /^\/(?![/\\])/.test(next) ? next : null;
}

// A labelled input, with a line of help under it (read with it by screen readers).
function field(label, attrs, help = null) {
  const helpId = help ? `${attrs.id}-help` : null;
  return el(
    "label",
    { class: "field" },
    el("span", { class: "field-label" }, label),
    el("input", { ...attrs, "aria-describedby": helpId }),
    help ? el("small", { id: helpId, class: "muted" }, help) : null,
  );
}

// A form whose submission calls ``work`` (its button disabled meanwhile): the server's
// refusal is shown in the form's message line, in the server's own words.
function form(id, parts, button, work) {
  const message = el("p", { id: `${id}-message`, class: "form-message", role: "alert" });
  const submit = el("button", { type: "submit", class: "primary", id: `${id}-submit` }, button);
  const node = el(
    "form",
    { id, class: "account-form", novalidate: true },
    ...parts,
    submit,
    message,
  );
  node.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.textContent = "";
    message.className = "form-message";
    submit.disabled = true;
    try {
      const said = await work(node);
      if (said) say(message, said);
    } catch (error) {
      message.classList.add("error");
      message.textContent = error.retryAfter
        ? `${error.message} (try again in ${error.retryAfter} s)`
        : error.message;
    } finally {
      submit.disabled = false;
    }
  });
  return node;
}

function say(line, words) {
  line.className = "form-message ok";
  line.textContent = words;
}

function value(id) {
  return $(id).value;
}

// -- signed out: sign in, or sign up ----------------------------------------------------------
function renderSignedOut(notice = "") {
  document.title = "Sign in · T-minus";
  const signIn = form(
    "sign-in",
    [
      field("Name", { id: "sign-in-name", name: "username", autocomplete: "username" }),
      field("Password", {
        id: "sign-in-password",
        name: "password",
        type: "password",
        autocomplete: "current-password",
      }),
    ],
    "Sign in",
    async () => {
      const me = await request("/api/session", {
        method: "POST",
        body: { name: value("sign-in-name"), password: value("sign-in-password") },
      });
      await signedIn(me, `Welcome back, ${me.name}.`);
    },
  );
  const signUp = form(
    "sign-up",
    [
      field(
        "Name",
        { id: "sign-up-name", name: "username", autocomplete: "username", maxlength: 24 },
        "What other players see: letters and digits, up to 24 characters.",
      ),
      field(
        "Password",
        {
          id: "sign-up-password",
          name: "new-password",
          type: "password",
          autocomplete: "new-password",
        },
        "8 to 128 characters.",
      ),
      field(
        "E-mail (optional)",
        { id: "sign-up-email", name: "email", type: "email", autocomplete: "email" },
        "Only for reminders, if you want them; never shown to anyone.",
      ),
      el(
        "label",
        { class: "check-field" },
        el("input", { type: "checkbox", id: "sign-up-reminders" }),
        "E-mail me when it is my turn",
      ),
    ],
    "Create my account",
    async () => {
      const email = value("sign-up-email").trim();
      const me = await request("/api/account", {
        method: "POST",
        body: {
          name: value("sign-up-name"),
          password: value("sign-up-password"),
          email: email || null,
          reminders: $("sign-up-reminders").checked,
        },
      });
      await signedIn(me, `Welcome, ${me.name}: your account is made and you are signed in.`);
    },
  );
  main.replaceChildren(
    el(
      "div",
      { class: "account-intro" },
      el("h1", {}, "Sign in"),
      el(
        "p",
        { class: "muted" },
        "An account is optional: invite links work without one. With an account your games follow you to every device, rated games count for your rating, and you may be e-mailed when it is your turn.",
      ),
      notice ? el("p", { class: "ok", role: "status", id: "account-notice" }, notice) : null,
    ),
    el(
      "section",
      { class: "panel", "aria-labelledby": "sign-in-title" },
      el("h2", { id: "sign-in-title" }, "Sign in"),
      signIn,
    ),
    el(
      "section",
      { class: "panel", "aria-labelledby": "sign-up-title" },
      el("h2", { id: "sign-up-title" }, "New here? Create an account"),
      signUp,
    ),
  );
  main.classList.add("signed-out");
}

async function signedIn(me, words) {
  setAccount(me);
  renderNav();
  await holdMySeats(); // the seats this browser holds follow the account from now on
  const next = nextPage();
  if (next) return location.assign(next);
  renderSignedIn(me, words);
}

// -- signed in ---------------------------------------------------------------------------------
function since(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ""
    : date.toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" });
}

function renderSignedIn(me, notice = "") {
  document.title = `${me.name}: your account · T-minus`;
  main.classList.remove("signed-out");
  const details = form(
    "details",
    [
      field("Name", {
        id: "name",
        name: "username",
        autocomplete: "username",
        value: me.name,
        maxlength: 24,
      }),
      field(
        "E-mail",
        { id: "email", name: "email", type: "email", autocomplete: "email", value: me.email || "" },
        "Only for reminders; never shown to anyone.",
      ),
      el(
        "label",
        { class: "check-field" },
        el("input", { type: "checkbox", id: "reminders", checked: me.reminders }),
        "E-mail me when it is my turn",
      ),
    ],
    "Save",
    async () => {
      const changes = {};
      const name = value("name").trim(),
        email = value("email").trim(),
        reminders = $("reminders").checked;
      if (name !== me.name) changes.name = name;
      if (email !== (me.email || "")) changes.email = email || null;
      if (reminders !== me.reminders) changes.reminders = reminders;
      if (!Object.keys(changes).length) return "Nothing changed.";
      const changed = await request("/api/account", { method: "PATCH", body: changes, csrf: true });
      Object.assign(me, changed);
      setAccount(me);
      renderNav();
      $("account-name").textContent = me.name;
      $("profile-link").href = `/player/${encodeURIComponent(me.name)}`;
      $("reminders").checked = me.reminders;
      if (reminders && !me.reminders) return "Saved. Reminders need an e-mail address.";
      return "Saved.";
    },
  );
  const password = form(
    "password",
    [
      field("Current password", {
        id: "current-password",
        type: "password",
        autocomplete: "current-password",
      }),
      field(
        "New password",
        { id: "new-password", type: "password", autocomplete: "new-password" },
        "8 to 128 characters. Your other devices are signed out.",
      ),
    ],
    "Change password",
    async () => {
      await request("/api/account", {
        method: "PATCH",
        body: { password: value("current-password"), new_password: value("new-password") },
        csrf: true,
      });
      $("current-password").value = $("new-password").value = "";
      return "Password changed: your other devices must sign in again.";
    },
  );
  const remove = form(
    "delete",
    [
      el(
        "p",
        {},
        "Your account, its ratings and its e-mail address are deleted. The games you played stay, under the name “Former player”.",
      ),
      field("Your password, to confirm", {
        id: "delete-password",
        type: "password",
        autocomplete: "current-password",
      }),
    ],
    "Delete my account",
    async () => {
      if (!confirm(`Delete the account “${me.name}” for good? This cannot be undone.`)) return "";
      await request("/api/account", {
        method: "DELETE",
        body: { password: value("delete-password") },
        csrf: true,
      });
      setAccount(null);
      resetNav();
      renderSignedOut("Your account is deleted.");
    },
  );
  remove.querySelector("button[type=submit]").className = "danger";
  const signOut = el(
    "button",
    {
      type: "button",
      id: "sign-out",
      onclick: async (event) => {
        event.target.disabled = true;
        try {
          await request("/api/session", { method: "DELETE", csrf: true });
        } catch (error) {
          if (error.status !== 401) {
            event.target.disabled = false;
            return alert(error.message);
          }
        }
        setAccount(null);
        resetNav();
        renderSignedOut("You are signed out.");
      },
    },
    "Sign out",
  );
  main.replaceChildren(
    el(
      "div",
      { class: "account-intro" },
      el("h1", { id: "account-name" }, me.name),
      el(
        "p",
        { class: "muted" },
        `Member since ${since(me.created)}. `,
        el(
          "a",
          { id: "profile-link", href: `/player/${encodeURIComponent(me.name)}` },
          "Your ratings and games",
        ),
        " · ",
        el("a", { href: "/" }, "Back to the lobby"),
      ),
      notice ? el("p", { class: "ok", role: "status", id: "account-notice" }, notice) : null,
    ),
    el(
      "section",
      { class: "panel", "aria-labelledby": "details-title" },
      el("h2", { id: "details-title" }, "Your details"),
      details,
    ),
    el(
      "section",
      { class: "panel", "aria-labelledby": "password-title" },
      el("h2", { id: "password-title" }, "Password"),
      password,
    ),
    el(
      "section",
      { class: "panel", "aria-labelledby": "data-title" },
      el("h2", { id: "data-title" }, "Your games and this device"),
      el(
        "p",
        { class: "account-actions" },
        el(
          "a",
          {
            class: "button",
            id: "export",
            href: "/api/account/export",
            download: `tminus-${me.name.replace(/[^\w.-]+/g, "_")}.json`,
          },
          "Export my games",
        ),
        signOut,
      ),
      el(
        "p",
        { class: "muted" },
        "The export is a JSON file: your account, ratings and every game you hold a seat in.",
      ),
    ),
    el(
      "section",
      { class: "panel danger-zone", "aria-labelledby": "delete-title" },
      el("details", {}, el("summary", { id: "delete-title" }, "Delete my account"), remove),
    ),
  );
}

// The top link once signed out: "Sign in" again.
function resetNav() {
  const link = $("account-link");
  link.textContent = "Sign in";
  link.classList.remove("signed-in");
  link.removeAttribute("aria-label");
}

async function start() {
  const me = await account();
  main.removeAttribute("aria-busy");
  renderNav();
  if (me) renderSignedIn(me);
  else renderSignedOut();
}

start();
