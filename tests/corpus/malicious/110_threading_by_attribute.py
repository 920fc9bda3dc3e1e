# expect: blocked-attribute
# A module an allowed module holds as an attribute (found by scripts/audit-reach): threads and
# trace hooks through pyplot's own `threading`.
t = plt.threading.Thread(target=print, args=("hi",))
t.start()
