# bot_smtpd.sh: sourced by the bot's end-to-end test, demo and benchmark.
# Starts a real OpenSMTPD (/usr/sbin/smtpd) on 127.0.0.1 delivering every
# recipient user@any-domain to $dir/mail/<user>/ (a Maildir), optionally
# refusing one address with 550. smtpd keeps its control socket and queue
# at fixed paths (/var/run/smtpd.sock, /var/spool/smtpd), so each instance
# runs in its own mount namespace (unshare -m) over private copies of both
# (the spool on a tmpfs /var/spool, so it need not exist on the machine):
# tests running in parallel, or a system smtpd, do not get in its way.
# Needs root (smtpd drops privileges itself).
# Also sink_start/sink_stop: tests/smtp_sink.py, the scripted server for
# faults (and TLS) that a real server will not produce on demand.

smtpd_usable() {
	[ -x /usr/sbin/smtpd ] || { echo "no /usr/sbin/smtpd (Debian package opensmtpd)"; return 1; }
	[ "$(id -u)" -eq 0 ] || { echo "OpenSMTPD must be started as root"; return 1; }
	unshare -m true 2>/dev/null || { echo "unshare -m is not permitted here"; return 1; }
	getent passwd nobody >/dev/null || { echo "no user nobody to deliver as"; return 1; }
}

smtpd_free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# smtpd_start DIR [REFUSED_ADDRESS]: sets SMTPD_PORT and SMTPD_PID.
smtpd_start() {
	local dir=$1 refused=${2:-} i
	mkdir -p "$dir/run" "$dir/spool" "$dir/mail"
	chmod 755 "$dir" "$dir/run"
	chmod 711 "$dir/spool"
	chmod 1777 "$dir/mail"
	[ -n "${SMTPD_PORT:-}" ] || SMTPD_PORT=$(smtpd_free_port)
	{
		echo "listen on 127.0.0.1 port $SMTPD_PORT"
		echo "table vusers { \"@\" = \"nobody\" }"
		echo "action \"deliver\" maildir \"$dir/mail/%{rcpt.user}\" virtual <vusers>"
		[ -z "$refused" ] || echo "match from any for rcpt-to \"$refused\" reject"
		echo "match from any for any action \"deliver\""
	} > "$dir/smtpd.conf"
	/usr/sbin/smtpd -n -f "$dir/smtpd.conf" >"$dir/smtpd.log" 2>&1 || { cat "$dir/smtpd.log" >&2; return 1; }
	# /var/spool/smtpd exists only once OpenSMTPD has run (a fresh install
	# does not start it): a tmpfs over /var/spool, in this namespace only,
	# gives the mount point on every machine.
	unshare -m sh -c "mount --bind '$dir/run' /var/run &&
		mount -t tmpfs -o mode=0755 sm-spool /var/spool &&
		mkdir /var/spool/smtpd &&
		mount --bind '$dir/spool' /var/spool/smtpd &&
		exec /usr/sbin/smtpd -d -f '$dir/smtpd.conf'" >>"$dir/smtpd.log" 2>&1 &
	SMTPD_PID=$!
	for i in $(seq 100); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$SMTPD_PORT") 2>/dev/null; then
			return 0
		fi
		kill -0 "$SMTPD_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "smtpd did not start; its log:" >&2
	cat "$dir/smtpd.log" >&2
	return 1
}

# smtpd_conf: the [smtp] section of a bot.conf for the server smtpd_start started.
smtpd_conf() {
	printf '[smtp]\n\thost = 127.0.0.1\n\tport = %s\n\tsecurity = none\n\ttimeout = 20\n' \
		"$SMTPD_PORT"
}

smtpd_stop() {
	[ -n "${SMTPD_PID:-}" ] || return 0
	kill "$SMTPD_PID" 2>/dev/null || true
	wait "$SMTPD_PID" 2>/dev/null || true
	SMTPD_PID=
}

# smtpd_test_start [REFUSED_ADDRESS]: for a test that sourced tests/lib.sh:
# skips when OpenSMTPD cannot run here, else starts it under $TMP/srv (its
# Maildirs under $MAIL), stopped at exit, and enters $TMP.
smtpd_test_start() {
	local why
	why=$(smtpd_usable) || skip "$why"
	trap 'smtpd_stop; rm -rf "$TMP"' EXIT
	chmod 755 "$TMP"	# smtpd delivers as nobody
	cd "$TMP"
	SRV=$TMP/srv
	smtpd_start "$SRV" "$@" || fail "cannot start OpenSMTPD"
	MAIL=$SRV/mail
}

# maildir_count DIR: messages delivered into a Maildir.
maildir_count() {
	find "$1/new" "$1/cur" -type f 2>/dev/null | wc -l
}

# maildir_wait DIR N: waits (up to 30 s) until DIR holds at least N messages.
maildir_wait() {
	local i
	for i in $(seq 300); do
		[ "$(maildir_count "$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# sink_start RECORD ARGS...: starts tests/smtp_sink.py (a loopback SMTP
# server recording what clients send to RECORD); sets SINKPID, SINKPORT.
sink_start() {
	local i
	python3 "$SM_SRCDIR/tests/smtp_sink.py" "$@" > "$1.port" & SINKPID=$!
	for i in $(seq 100); do [ -s "$1.port" ] && break; sleep 0.1; done
	SINKPORT=$(cat "$1.port")
	[ -n "$SINKPORT" ] || fail "the SMTP sink did not start"
}

sink_stop() {
	[ -n "${SINKPID:-}" ] || return 0
	kill "$SINKPID" 2>/dev/null || true
	wait "$SINKPID" 2>/dev/null || true
	SINKPID=
}
