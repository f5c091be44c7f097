// Package people keeps the persons of a pool's server: their accounts, roles, passwords,
// command-line tokens and browser sessions, and the limits on failed logins.
//
// A person registers with a name and a password; the account is pending until an approver
// accepts it (or an admin adds it, active at once: the first admin is added so, by a command
// on the server's machine). Roles rank user < approver < admin: a user submits runs and
// controls its own; an approver also approves accounts and others' runs and controls any run;
// an admin also sets roles.
//
// Passwords are kept as argon2id hashes (golang.org/x/crypto/argon2, RFC 9106's second
// recommended setting by default), never in clear. A token for the command line is 32 random
// bytes, shown once when it is made and kept as its SHA-256 only: it is as unguessable as a
// key, so a slow hash would buy nothing. A browser session is a random ID in an HttpOnly,
// SameSite=Lax cookie (Secure over TLS, or always when the server is told it sits behind a
// TLS proxy), known to the server only in memory: a logout, or a restart of the server, ends
// it. Failed logins are counted per account and per client address: past a few, each further
// try is refused without looking at the password, for a time that doubles up to an hour.
//
// Accounts live in the pool's JetStream key-value bucket (keys "person.NAME"), so that a
// server started again keeps them.
package people
