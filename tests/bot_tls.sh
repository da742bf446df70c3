#!/usr/bin/env bash
# bot_tls: the bot's mail over STARTTLS with AUTH, against a real TLS
# handshake (tests/smtp_sink.py --starttls: Python's ssl, i.e. OpenSSL,
# with a certificate made here for 127.0.0.1; Debian 12's OpenSMTPD cannot
# do TLS with OpenSSL 3, see smtp_sink.py):
#  1. the default (verify the server) without its CA: refused with one line
#     naming the certificate problem, the password never sent, the mails
#     stay queued, none moved to failed/;
#  2. smtp.caFile names the CA: sent, AUTH and every mail inside TLS;
#  3. security = starttls against a server that offers no STARTTLS: refused,
#     the password never sent, the mails still queued;
#  4. a missing smtp.caFile is a config error naming the file.
. "$(dirname "$0")/lib.sh"
. "$SM_SRCDIR/tests/bot_smtpd.sh"
command -v openssl >/dev/null || skip "openssl is not installed"

trap 'sink_stop; rm -rf "$TMP"' EXIT
cd "$TMP"
mkdir tls
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
	-subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" \
	-keyout tls/key.pem -out tls/cert.pem 2>openssl.err || fail "openssl: $(tail -1 openssl.err)"
printf 's3cret-pass\n' > password
chmod 600 password
"$SM_SRCDIR/bot/sample-repo.sh" "$SM_SRCDIR/sample/bot/commits" "$TMP/linux" >/dev/null

# conf NAME PORT SMTP-LINES...: a bot.conf with one subscriber of linux-6.1.y.
conf() {
	local name=$1 port=$2; shift 2
	{
		"$SM_SRCDIR/bot/sample-conf.sh" -b master v6.1..master linux-6.1.y
		printf '[smtp]\n\thost = 127.0.0.1\n\tport = %s\n\ttimeout = 20\n' "$port"
		printf '\tsecurity = starttls\n\tuser = bot\n\tpasswordFile = password\n'
		printf '\t%s\n' "$@"
		printf '[bot]\n\tfrom = Stable Bot <bot@example.org>\n\tstateDir = state\n\tcacheDir = cache\n'
		printf '[subscriber "greg"]\n\taddress = Greg <greg@example.org>\n\ttrees = linux-6.1.y\n'
	} > "$name"
}
queued() { find state/queue -type f 2>/dev/null | wc -l; }
count() { python3 -c 'import sys; print(open(sys.argv[1], "rb").read().count(sys.argv[2].encode()))' "$@"; }
# the password as AUTH PLAIN carries it, base64 of "\0bot\0s3cret-pass"
plain=$(printf '\0bot\0s3cret-pass' | base64)

sink_start tls.rec --starttls tls/cert.pem tls/key.pem --auth ok

echo "== 1. the server's certificate is not trusted"
conf untrusted.conf "$SINKPORT"
"$STABLEMATE" report --config untrusted.conf > r1.out 2> r1.err && fail "sent to an untrusted server: $(cat r1.out)"
grepq -i 'certificate' r1.err || fail "the error does not name the certificate: $(cat r1.err)"
q=$(queued)
[ "$q" -gt 0 ] || fail "nothing queued after the refused send: $(cat r1.out r1.err)"
[ -z "$(ls state/failed 2>/dev/null)" ] || fail "mails moved to failed/ for a certificate problem"
[ "$(count tls.rec "$plain")" -eq 0 ] || fail "the password went to an untrusted server"
[ "$(count tls.rec 'MAIL FROM')" -eq 0 ] || fail "a mail went to an untrusted server"

echo "== 2. smtp.caFile trusts it: AUTH and the mails inside TLS"
conf trusted.conf "$SINKPORT" "caFile = tls/cert.pem"
: > tls.rec
"$STABLEMATE" report --config trusted.conf > r2.out 2> r2.err || fail "report over TLS: $(cat r2.err)"
[ "$(queued)" -eq 0 ] || fail "mails left in the queue: $(cat r2.out r2.err)"
[ "$(count tls.rec $'\r\n.\r\n')" -eq "$q" ] || fail "expected $q mails, the server got $(count tls.rec $'\r\n.\r\n')"
# nothing but EHLO and STARTTLS before the handshake, in each connection
python3 - tls.rec <<'PY' || fail "something was sent before STARTTLS: $(head -c 400 tls.rec)"
import sys
clear = True
for line in open(sys.argv[1], "rb").read().split(b"\r\n"):
    if line == b"-- TLS --":
        clear = False
    elif line.upper().startswith(b"EHLO") and clear is None:
        clear = True
    elif line.upper() == b"QUIT":
        clear = None
    elif clear and line and not line.upper().startswith((b"EHLO", b"STARTTLS")):
        sys.exit(1)
PY
grepq -F "AUTH PLAIN" tls.rec && grepq -F "$plain" tls.rec || fail "no AUTH inside TLS: $(grep -a -A1 AUTH tls.rec)"
sink_stop

echo "== 3. STARTTLS required, the server does not offer it"
rm -rf state
sink_start clear.rec --auth ok
conf clear.conf "$SINKPORT" "caFile = tls/cert.pem"
"$STABLEMATE" report --config clear.conf > r3.out 2> r3.err && fail "sent without TLS: $(cat r3.out)"
grepq -i 'STARTTLS\|TLS\|SSL' r3.err || fail "the error does not say TLS failed: $(cat r3.err)"
[ "$(queued)" -gt 0 ] || fail "nothing queued after the refused send"
grepq 'AUTH' clear.rec && fail "the password went out without TLS"
grepq 'MAIL FROM' clear.rec && fail "a mail went out without TLS"
sink_stop

echo "== 4. a missing caFile is named"
conf missing.conf 25 "caFile = tls/nope.pem"
"$STABLEMATE" report --config missing.conf > r4.out 2> r4.err && fail "a missing caFile was accepted"
grepq 'smtp.caFile: .*tls/nope.pem: No such file' r4.err || fail "error: $(cat r4.err)"
echo "ok: STARTTLS + AUTH: untrusted certificate refused and mails kept, caFile trusted and sent, no STARTTLS refused"
