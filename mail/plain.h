/* plain: a mail as the plain text that sm_commit_parse (rules/commit.h)
 * reads. That parser reads headers and body as they are written, which is
 * right for `git format-patch` output and most list mail (7- or 8-bit
 * text), but not for a quoted-printable or base64 body (soft line breaks
 * inside words, "=3D"), an RFC 2047 subject ("=?utf-8?q?...?="), a
 * multipart, or a Latin-1 name: those go through gmime (mail/message.h)
 * first. */
#ifndef SM_MAIL_PLAIN_H
#define SM_MAIL_PLAIN_H
#include <stddef.h>

struct strbuf;

/* Does the header block of data ask for decoding: a quoted-printable or
 * base64 transfer encoding, a multipart, a charset other than UTF-8 or
 * ASCII, or an encoded word in From: or Subject:? 0 for a plain mail and
 * for text that is no mail at all (a commit message, `git show` output).
 * Reads the headers only. */
int sm_mail_is_encoded(const char *data, size_t len);

/* Appends data, a mail, decoded: its mbox "From " line if it has one (it
 * names a format-patch commit), "From:" and "Subject:" decoded to UTF-8, a
 * blank line, then the text parts and patch attachments decoded to UTF-8.
 * name (a file, "FILE: message N") is for the error. 0, or -1 (sm_error
 * naming the message) when gmime cannot read it; out is unchanged then. */
int sm_mail_to_plain(const char *data, size_t len, const char *name, struct strbuf *out);

#endif
