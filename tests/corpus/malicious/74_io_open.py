# expect: import-not-allowed, blocked-name, blocked-attribute
import io
print(io.open('/etc/passwd').read())
