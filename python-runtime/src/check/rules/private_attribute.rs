//! `private-attribute` — an attribute name starting with `_` on something the script does
//! not own, or an introspection dunder on anything.
//!
//! ## What it does
//! Rejects `x._name` and `x.__dunder__` (also as a match class keyword, `case C(_x=v)`),
//! except:
//! * inside a method of a class defined in this script, on the method's own receiver
//!   (`self` or `cls`, not rebound), on zero-argument `super()` and on the explicit base
//!   call `Base.name(self, ...)`: the protocol dunders (`self.__len__`,
//!   `Base.__init__(self)`), and private names the script owns for sure:
//!   * any, when every base of the class (at any depth) is a class of this script or
//!     `object`;
//!   * `self._x` / `cls._x` when the class's own body defines `_x` (it is found there
//!     first), or when the script gives `_x` to the class or a script base (body or
//!     `self._x = ...`) and no library class carries a `_x` (the table
//!     `check/library_privates.txt`, generated from the runtime);
//!   * `super()._x` when the first base is a script class whose body defines `_x`, the
//!     same library-free case, or `_x` is one of the reviewed hooks matplotlib's gallery
//!     overrides (`allowlist.toml`'s `library_hook`: `super()._gen_axes_spines()`);
//!   * `Base._x(self, ...)` alike for `Base`.
//!
//! * the attributes the policy's `module_attribute` table allows on one module
//!   (`matplotlib.__version__`, and `PIL.Image.open`, which `blocked-attribute` would
//!   refuse), when the receiver is written as that module through names bound only by
//!   imports.
//!
//! The introspection dunders (`__class__`, `__dict__`, `__globals__`, `__subclasses__`,
//! `__mro__`, `__bases__`, `__builtins__`, `__code__`, `__closure__`, `__getattribute__`,
//! `__reduce__`, ...) and any dunder not in the protocol list are rejected everywhere,
//! `self` included. Rebinding `self`/`cls` inside a method is rejected, since it would
//! carry the receiver's privilege to a library object.
//!
//! ## Why is this bad?
//! `().__class__.__bases__[0].__subclasses__()` is the classic escape from any sandbox, and
//! private attributes are the usual road from an allowed library to a dangerous one
//! (`np.core._multiarray_umath`, `pd._libs`). A subclass of a library class reaches the
//! library's private methods through `self` and `super()`: `typing.ForwardRef._evaluate`
//! runs `eval` with the full builtins.
//!
//! ## Instead
//! use the public API; private `_names` are only allowed on self/cls/super() inside your
//! own class's methods, and introspection dunders never

use super::dunder_name::is_dunder;
use super::{Flow, Rule, RuleId};
use crate::check::Advice;
use crate::check::classes::Via;
use crate::check::walker::Checker;

pub const RULE: Rule = Rule {
    id: RuleId::PrivateAttribute,
    instead: "use the public API; private `_names` are only allowed on self/cls/super() inside your own class's methods, and introspection dunders never",
};

/// An attribute read or written (`load`: only read): `__name__` may be read on anything (a
/// string), every other `_name` is judged by [`check`].
pub fn check_access(cx: &mut Checker, name: &str, offset: usize, owned: bool, load: bool) -> Flow {
    if load && cx.idx.bare_dunders.contains(name) {
        return Flow::Continue;
    }
    check(cx, name, offset, owned)
}

/// `module.name` (`matplotlib.__version__`, `PIL.Image.open`) read where `module` is the
/// dotted module the receiver stands for: allowed by the policy's `module_attribute` table
/// whatever the name rules would say elsewhere. `module` is `None` when the receiver is not
/// known to be a module (bound otherwise, or by disagreeing imports).
pub fn on_its_module(cx: &Checker, module: Option<&str>, name: &str) -> bool {
    module.is_some_and(|m| {
        cx.idx
            .module_attributes
            .contains(format!("{m}.{name}").as_str())
    })
}

/// Check attribute `name` read or written on a receiver; `owned` when the receiver is the
/// method's `self`/`cls` or `super()`.
pub fn check(cx: &mut Checker, name: &str, offset: usize, owned: bool) -> Flow {
    if !name.starts_with('_') {
        return Flow::Continue;
    }
    if is_dunder(name) {
        if cx.idx.introspection_dunders.contains(name) {
            cx.report(
                &RULE,
                offset,
                format!("`{name}` is an introspection attribute, the classic sandbox escape"),
            );
            return Flow::Reported;
        }
        if owned && cx.idx.protocol_dunders.contains(name) {
            return Flow::Continue;
        }
        let on = if owned {
            ""
        } else {
            " outside self/cls/super() in your own class"
        };
        cx.report(
            &RULE,
            offset,
            format!("the dunder attribute `{name}` is not allowed{on}"),
        );
        return Flow::Reported;
    }
    if owned {
        return Flow::Continue;
    }
    cx.report(
        &RULE,
        offset,
        format!("`{name}` is a private attribute of an object this script does not own"),
    );
    Flow::Reported
}

/// A reviewed private name read on any object (`g._legend`, `kde._compute_covariance`,
/// the policy's `reviewed_private` rows): allowed, with a note naming the public equivalent.
pub fn reviewed(cx: &mut Checker, name: &str) -> bool {
    let Some(row) = cx.idx.reviewed_privates.get(name).copied() else {
        return false;
    };
    cx.note(format!(
        "`{name}` is a private name, allowed read-only ({}); the public way is {}",
        row.reason, row.instead
    ));
    true
}

/// A private, non-dunder attribute name (`_x`): on the method's own receiver it is judged
/// once the script's classes are known.
pub fn is_private_name(name: &str) -> bool {
    name.starts_with('_') && !is_dunder(name)
}

/// A private name on self/cls/super() or an explicit base that may be a library's.
pub fn not_owned(cx: &mut Checker, name: &str, via: &Via, offset: usize) {
    let on = match via {
        Via::Receiver => "through self/cls".to_owned(),
        Via::Super => "through super()".to_owned(),
        Via::Base(base) => format!("on `{base}`"),
    };
    cx.report_with(
        &RULE,
        offset,
        format!("`{name}` {on} may be a private name of a library base class"),
        Advice::Own(
            "define it in your own class's body first, or use the library's public API; a library class's private methods are never reached",
        ),
    );
}

/// `A.m` where `m` is an instance method of the script read through a class: called so,
/// `self` is whatever the caller passes (`A.go(library_object)`), and the privileges of
/// `self` inside it would reach that object's private names.
pub fn unbound_method(cx: &mut Checker, class: &str, name: &str, offset: usize) {
    cx.report_with(
        &RULE,
        offset,
        format!("`{class}.{name}` reads your method through a class, where any object can be passed as `self`"),
        Advice::Own("call methods on an instance (`obj.m()`), or use super() inside a method"),
    );
}

/// A string literal that is a dunder name: libraries turn strings into attribute reads
/// (`s.agg('__reduce_ex__')`, `f.__globals__['__builtins__']`). `__main__`, `__name__` and
/// the protocol dunders are ordinary strings.
pub fn check_literal(cx: &mut Checker, text: &str, offset: usize) {
    let name = text.trim();
    let ordinary = name == "__main__"
        || cx.idx.bare_dunders.contains(name)
        || cx.idx.protocol_dunders.contains(name);
    if is_dunder(name) && !ordinary && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        cx.report(
            &RULE,
            offset,
            format!("the string `'{name}'` names an introspection attribute"),
        );
    }
}

/// Rebinding the method receiver (`self = np`) inside a method.
pub fn rebound_receiver(cx: &mut Checker, name: &str, offset: usize) {
    cx.report(
        &RULE,
        offset,
        format!("rebinding `{name}` inside a method is not allowed; use another variable name"),
    );
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        assert_accepts(
            "class F:\n    def __init__(self, n):\n        super().__init__()\n        self._n = n\n    def __call__(self, x, pos=None):\n        return f'{x:.{self._n}f}'\n    @classmethod\n    def make(cls):\n        cls._cache = {}\n        return [cls._cache for _ in range(2)]\n",
        );
        assert_accepts(
            "class A:\n    def f(self):\n        g = lambda v: self._k * v\n        return g\n",
        );
        assert_rejects(
            "().__class__.__bases__[0].__subclasses__()\n",
            &[
                (1, 4, "private-attribute"),
                (1, 14, "private-attribute"),
                (1, 27, "private-attribute"),
            ],
        );
        assert_rejects("x = np._core\n", &[(1, 8, "private-attribute")]);
        // `__name__` is a string: it may be read on anything, never written.
        assert_accepts("kind = type(artist).__name__\nlabel = np.sin.__name__\n");
        assert_rejects("f.__name__ = 'g'\n", &[(1, 3, "private-attribute")]);
        assert_rejects(
            "x = type(a).__qualname__\n",
            &[(1, 13, "private-attribute")],
        );
        // The explicit base-class call inside the class's own method (matplotlib's gallery).
        assert_accepts(
            "import matplotlib.axes as maxes\nclass A(maxes.Axes):\n    def __init__(self, *a):\n        maxes.Axes.__init__(self, *a)\n        maxes.Axes._init_axis(self)\n    def clear(self):\n        f = lambda: maxes.Axes.clear(self)\n        return f()\n",
        );
        // ... but not on another object, outside the class, with another base, or an
        // introspection dunder even so.
        assert_rejects(
            "class A(Axes):\n    def __init__(self, other):\n        Axes.__init__(other)\n",
            &[(3, 14, "private-attribute")],
        );
        assert_rejects(
            "class A(Axes):\n    pass\nAxes.__init__(A())\n",
            &[(3, 6, "private-attribute")],
        );
        assert_rejects(
            "class A(Axes):\n    def f(self):\n        Figure._x(self)\n",
            &[(3, 16, "private-attribute")],
        );
        assert_rejects(
            "class A(Axes):\n    def f(self):\n        Axes.__subclasses__(self)\n",
            &[(3, 14, "private-attribute")],
        );
        assert_rejects(
            "class A:\n    def f(self):\n        return self.__dict__\n",
            &[(3, 21, "private-attribute")],
        );
        assert_rejects(
            "def f(self):\n    return self._x\n",
            &[(2, 17, "private-attribute")],
        );
        assert_rejects(
            "class A:\n    def f(self):\n        self = np\n        return self._core\n",
            &[(3, 9, "private-attribute"), (4, 16, "module-value")],
        );
        assert_rejects(
            "class A:\n    def f(self, o):\n        return o._x\n",
            &[(3, 18, "private-attribute")],
        );
        assert_rejects(
            "class A:\n    def f(self):\n        return super().__reduce__()\n",
            &[(3, 24, "private-attribute")],
        );
        assert_rejects(
            "match x:\n    case object(__globals__=g):\n        pass\n",
            &[(2, 17, "private-attribute")],
        );
        assert_rejects(
            "class A:\n    def f(self):\n        return [self._x for self in [np]]\n",
            &[(3, 29, "private-attribute"), (3, 38, "module-value")],
        );
    }

    #[test]
    fn attributes_allowed_on_one_module() {
        assert_accepts(
            "import matplotlib\nv = matplotlib.__version__\nw = np.__version__\nimport pandas as pd\nx = pd.__version__\nfrom PIL import Image\nim = Image.open(srcpath('a.png'))\nimport PIL\nim2 = PIL.Image.open('b.jpg')\nimport PIL.Image as I\nim3 = I.open('c.png')\n",
        );
        assert_rejects(
            "class A:\n    pass\nv = A().__version__\n",
            &[(3, 9, "private-attribute")],
        );
        assert_rejects(
            "import matplotlib\nmatplotlib.__version__ = '1'\n",
            &[(2, 12, "module-assignment"), (2, 12, "private-attribute")],
        );
        assert_rejects(
            "from PIL import Image\nImage = np\nImage.open('x')\n",
            &[(3, 7, "blocked-attribute")],
        );
        assert_rejects(
            "from PIL import Image\ndef f(Image):\n    return Image.open('x')\n",
            &[(3, 18, "blocked-attribute")],
        );
        assert_rejects(
            "import matplotlib.image as mi\nmi.PIL.Image.open('x')\nim = mi.imread('a.png')\nim.open\n",
            &[(2, 14, "blocked-attribute"), (4, 4, "blocked-attribute")],
        );
        assert_rejects(
            "from PIL.Image import open\n",
            &[(1, 23, "blocked-submodule")],
        );
    }

    #[test]
    fn library_bases_and_their_private_names() {
        // matplotlib's gallery (misc/custom_projection.py): a base class calls a hook its
        // subclasses define; matplotlib's Axes carries no such name.
        assert_accepts(
            "import matplotlib.axes as maxes\nclass Geo(maxes.Axes):\n    def setup(self):\n        self._cap = 1\n        return self._core(self._cap)\nclass Hammer(Geo):\n    def _core(self, c):\n        return c\n",
        );
        // A class of the script only: any private name.
        assert_accepts(
            "class A:\n    def go(self):\n        return self._anything()\n    def _anything(self):\n        return super()._more()\n",
        );
        // ForwardRef carries `_evaluate`: through self, super() or the base, refused.
        assert_rejects(
            "from typing import ForwardRef\nclass F(ForwardRef):\n    def go(self):\n        return self._evaluate, super()._evaluate, ForwardRef._evaluate(self)\n",
            &[
                (4, 21, "private-attribute"),
                (4, 40, "private-attribute"),
                (4, 62, "private-attribute"),
            ],
        );
        // ... also when the name is assigned in a method that may never run (a library's
        // private name is not written either) ...
        assert_rejects(
            "from typing import ForwardRef\nclass F(ForwardRef):\n    def go(self):\n        return self._evaluate()\n    def never(self):\n        self._evaluate = None\n",
            &[(4, 21, "private-attribute"), (6, 14, "private-attribute")],
        );
        // ... and when a derived class brings the library base in.
        assert_rejects(
            "from typing import ForwardRef\nclass C:\n    def go(self):\n        return self._evaluate()\nclass D(ForwardRef, C):\n    pass\n",
            &[(4, 21, "private-attribute")],
        );
        // Defined in the class's own body: found there first.
        assert_accepts(
            "from typing import ForwardRef\nclass F(ForwardRef):\n    def _evaluate(self):\n        return 1\n    def go(self):\n        return self._evaluate()\n",
        );
        // A base written as an expression is a library class; a comprehension variable in
        // the class body defines nothing.
        assert_rejects(
            "from typing import ForwardRef\nclass F(*[ForwardRef]):\n    [0 for _evaluate in [1]]\n    def go(self):\n        return self._evaluate()\n",
            &[(5, 21, "private-attribute")],
        );
    }

    #[test]
    fn reviewed_private_names_are_read_only_on_any_object() {
        let accepted = crate::check::check(
            b"import seaborn as sns\ng = sns.FacetGrid(df)\ng._legend.remove()\nkde._compute_covariance()\ncolor = ax._get_lines.get_next_color()\n",
        )
        .unwrap_or_else(|r| panic!("{}", r.hint));
        assert!(
            accepted.notes.iter().any(|n| n.contains("sns.move_legend")),
            "{:?}",
            accepted.notes
        );
        assert_rejects(
            "g._legend = 1\ndel g._legend\nx = g._legend._loc\n",
            &[
                (1, 3, "private-attribute"),
                (2, 7, "private-attribute"),
                (3, 15, "private-attribute"),
            ],
        );
    }

    #[test]
    fn more_cases() {
        use crate::check::rules::{assert_accepts, assert_rejects};
        assert_rejects(
            "s = x.agg('__reduce_ex__')\n",
            &[(1, 11, "private-attribute")],
        );
        assert_rejects(
            "class A:\n    def f(self):\n        return super(A, np)._core\n",
            &[(3, 25, "module-value"), (3, 29, "private-attribute")],
        );
        assert_accepts("if __name__ == '__main__':\n    plt.plot([1], label='_nolegend_')\n");
    }
}
