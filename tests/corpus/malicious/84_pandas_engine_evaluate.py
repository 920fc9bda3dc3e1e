# expect: private-attribute
# Another library class with a private evaluator: pandas' expression engine.
from pandas.core.computation.engines import PythonEngine
class E(PythonEngine):
    def go(self):
        return self._evaluate()
