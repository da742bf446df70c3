#!/usr/bin/env python3
"""smtp_sink: a tiny SMTP server on 127.0.0.1 for tests/test_bot, recording
every byte clients send (the server's view of the stream) to RECORD.

usage: smtp_sink.py RECORD [--auth ok|535|broken|close] [--refuse ADDR]...
                           [--reject-data]
Prints the port it listens on, then serves connections one after another
until killed.
  --auth ok       AUTH PLAIN/LOGIN accepted (235)
  --auth 535      every AUTH answered "535 5.7.8 Authentication credentials invalid"
  --auth broken   AUTH answered with a reply that is no SMTP reply at all
  --auth close    the connection is closed on AUTH
  --refuse ADDR   RCPT TO:<ADDR> answered 550
  --reject-data   the end of DATA answered 554
  --hang-after-data  the end of the first DATA never answered (the client
                  is to be killed there: a crash between the message and the
                  record of its 250)
  --starttls CERT KEY  STARTTLS offered and done with Python's ssl (OpenSSL);
                  AUTH and MAIL are refused with 530 before it. The record
                  gets a line "-- TLS --" where the stream turned encrypted.
                  (Debian 12's OpenSMTPD 6.8 cannot do TLS with OpenSSL 3:
                  its issues #1171, #1239; so the TLS tests use this server.)
"""
import ssl
import time
import socket
import sys

args = sys.argv[1:]
record = args.pop(0)
auth, refuse, reject_data, hang, tls = None, set(), False, False, None
while args:
    a = args.pop(0)
    if a == "--auth":
        auth = args.pop(0)
    elif a == "--refuse":
        refuse.add(args.pop(0).lower())
    elif a == "--reject-data":
        reject_data = True
    elif a == "--hang-after-data":
        hang = True
    elif a == "--starttls":
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(args.pop(0), args.pop(0))
    else:
        sys.exit("smtp_sink: unknown argument " + a)

srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 0))
srv.listen(5)
sys.stdout.write("%d\n" % srv.getsockname()[1])
sys.stdout.flush()
log = open(record, "ab", buffering=0)


def serve(conn):
    f = conn.makefile("rb")
    out = conn.makefile("wb", buffering=0)
    out.write(b"220 sink.example.org ESMTP test sink\r\n")
    rcpts = 0
    secure = False
    while True:
        line = f.readline()
        if not line:
            return
        log.write(line)
        cmd = line.strip().upper()
        if tls and not secure and (cmd.startswith(b"AUTH") or cmd.startswith(b"MAIL")):
            out.write(b"530 5.7.0 Must issue a STARTTLS command first\r\n")
        elif tls and not secure and cmd == b"STARTTLS":
            out.write(b"220 2.0.0 Ready to start TLS\r\n")
            conn = tls.wrap_socket(conn, server_side=True)
            f = conn.makefile("rb")
            out = conn.makefile("wb", buffering=0)
            secure = True
            log.write(b"-- TLS --\r\n")
        elif cmd.startswith(b"EHLO"):
            out.write(b"250-sink.example.org\r\n")
            if tls and not secure:
                out.write(b"250-STARTTLS\r\n")
            if auth:
                out.write(b"250-AUTH PLAIN LOGIN\r\n")
            out.write(b"250 8BITMIME\r\n")
        elif cmd.startswith(b"HELO"):
            out.write(b"250 sink.example.org\r\n")
        elif cmd.startswith(b"AUTH"):
            if auth == "ok":
                if len(cmd.split()) < 3:  # no initial response: ask for it
                    out.write(b"334 \r\n")
                    log.write(f.readline())
                out.write(b"235 2.7.0 Authentication successful\r\n")
            elif auth == "535":
                out.write(b"535 5.7.8 Authentication credentials invalid\r\n")
            elif auth == "broken":
                out.write(b"hello? this is no SMTP reply\r\n")
                return
            else:
                return
        elif cmd.startswith(b"MAIL FROM:"):
            rcpts = 0
            out.write(b"250 2.1.0 Ok\r\n")
        elif cmd.startswith(b"RCPT TO:"):
            addr = line.strip()[8:].strip(b"<> ").decode("utf-8", "replace").lower()
            if addr in refuse:
                out.write(b"550 5.1.1 <%s>: Recipient address rejected\r\n" % addr.encode())
            else:
                rcpts += 1
                out.write(b"250 2.1.5 Ok\r\n")
        elif cmd == b"DATA":
            if not rcpts:
                out.write(b"554 5.5.1 No valid recipients\r\n")
                continue
            out.write(b"354 End data with <CR><LF>.<CR><LF>\r\n")
            while True:
                d = f.readline()
                if not d:
                    return
                log.write(d)
                if d == b".\r\n":
                    break
            if hang:
                time.sleep(3600)
            if reject_data:
                out.write(b"554 5.7.1 Message content rejected\r\n")
            else:
                out.write(b"250 2.0.0 Ok: queued\r\n")
        elif cmd == b"RSET" or cmd == b"NOOP":
            out.write(b"250 2.0.0 Ok\r\n")
        elif cmd == b"QUIT":
            out.write(b"221 2.0.0 Bye\r\n")
            return
        else:
            out.write(b"502 5.5.2 Command not recognized\r\n")


while True:
    c, _ = srv.accept()
    try:
        serve(c)
    except OSError:
        pass
    finally:
        c.close()
