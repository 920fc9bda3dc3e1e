# expect: import-not-allowed, blocked-name
import socket
s = socket.create_connection(("evil.example", 80))
