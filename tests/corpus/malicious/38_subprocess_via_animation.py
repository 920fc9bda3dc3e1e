# expect: blocked-submodule, blocked-attribute
import matplotlib.animation as anim
anim.subprocess.run(['id'])
