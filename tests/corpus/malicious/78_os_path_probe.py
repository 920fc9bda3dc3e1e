# expect: import-not-allowed, blocked-name
# os.path functions that touch the file system are not among the pure ones.
import os.path
print(os.path.exists('/root/.ssh/id_rsa'), os.path.realpath('/proc/self/exe'))
