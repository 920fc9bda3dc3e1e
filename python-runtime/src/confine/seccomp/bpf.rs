//! A small classic-BPF assembler that builds a program from its end backwards, so every
//! jump target already has an address when the jump is written. A conditional jump's
//! offsets are one byte each: a target further than 255 instructions gets a trampoline
//! (`BPF_JA`, whose offset is 32 bits) right after the jump; an offset that still does not
//! fit is an error, never a saturated (wrong) jump.

// Classic BPF opcodes (linux/filter.h).
pub(super) const LD_W_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
pub(super) const JA: u16 = 0x05; // BPF_JMP | BPF_JA
pub(super) const JEQ_K: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
pub(super) const JGE_K: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
pub(super) const RET_K: u16 = 0x06; // BPF_RET | BPF_K

/// The kernel's limit on a filter's length (BPF_MAXINSNS).
pub(super) const MAX_INSNS: usize = 4096;

/// An instruction already emitted, named by its distance from the program's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Label(usize);

#[derive(Debug, PartialEq, Eq)]
pub(super) enum AsmError {
    JumpTooFar { from: usize, to: usize },
    TooLong(usize),
}

impl std::fmt::Display for AsmError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AsmError::JumpTooFar { from, to } => write!(
                f,
                "the seccomp filter's jump from {from} to {to} (counted from its end) does \
                 not fit (a bug in PDFAgent: please report it)"
            ),
            AsmError::TooLong(n) => write!(
                f,
                "the seccomp filter has {n} instructions, more than the kernel's {MAX_INSNS} \
                 (a bug in PDFAgent: please report it)"
            ),
        }
    }
}

impl std::error::Error for AsmError {}

/// The program being written, last instruction first.
#[derive(Default)]
pub(super) struct Asm {
    reversed: Vec<libc::sock_filter>,
}

impl Asm {
    fn push(&mut self, code: u16, jt: u8, jf: u8, k: u32) -> Label {
        self.reversed.push(libc::sock_filter { code, jt, jf, k });
        Label(self.reversed.len() - 1)
    }

    /// The distance a jump written next would need to reach `to`.
    fn distance(&self, to: Label) -> usize {
        self.reversed.len() - to.0 - 1
    }

    pub(super) fn ret(&mut self, k: u32) -> Label {
        self.push(RET_K, 0, 0, k)
    }

    pub(super) fn load(&mut self, offset: u32) -> Label {
        self.push(LD_W_ABS, 0, 0, offset)
    }

    /// An unconditional jump (32-bit offset).
    pub(super) fn goto(&mut self, to: Label) -> Result<Label, AsmError> {
        let from = self.reversed.len();
        let k = u32::try_from(self.distance(to))
            .map_err(|_| AsmError::JumpTooFar { from, to: to.0 })?;
        Ok(self.push(JA, 0, 0, k))
    }

    /// `if A <op> k goto yes else goto no`. A far target goes through a trampoline; the
    /// first is placed with one byte of room for the second.
    pub(super) fn branch(
        &mut self,
        op: u16,
        k: u32,
        mut yes: Label,
        mut no: Label,
    ) -> Result<Label, AsmError> {
        if self.distance(yes) > usize::from(u8::MAX) - 1 {
            yes = self.goto(yes)?;
        }
        if self.distance(no) > usize::from(u8::MAX) {
            no = self.goto(no)?;
        }
        let from = self.reversed.len();
        let byte = |to: Label| {
            u8::try_from(self.distance(to)).map_err(|_| AsmError::JumpTooFar { from, to: to.0 })
        };
        let (jt, jf) = (byte(yes)?, byte(no)?);
        Ok(self.push(op, jt, jf, k))
    }

    /// The program in execution order; `entry` must be the last instruction written.
    pub(super) fn finish(mut self, entry: Label) -> Result<Vec<libc::sock_filter>, AsmError> {
        if entry.0 + 1 != self.reversed.len() {
            // Only a bug in the builder: the entry must be the first instruction executed.
            return Err(AsmError::JumpTooFar {
                from: self.reversed.len(),
                to: entry.0,
            });
        }
        if self.reversed.len() > MAX_INSNS {
            return Err(AsmError::TooLong(self.reversed.len()));
        }
        self.reversed.reverse();
        Ok(self.reversed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_far_target_goes_through_a_trampoline_and_jumps_stay_exact() {
        let mut asm = Asm::default();
        let far = asm.ret(1);
        for _ in 0..300 {
            asm.ret(2);
        }
        let near = asm.ret(3);
        let entry = asm.branch(JEQ_K, 7, far, near).unwrap();
        let prog = asm.finish(entry).unwrap();
        // A trampoline sits right after the branch and lands exactly on `far` (the end).
        assert_eq!(prog[0].code, JEQ_K);
        let ja = 1 + usize::from(prog[0].jt);
        assert_eq!(prog[ja].code, JA);
        assert_eq!(ja + 1 + prog[ja].k as usize, prog.len() - 1);
        assert_eq!(prog[prog.len() - 1].k, 1);
        assert_eq!(prog[1 + usize::from(prog[0].jf)].k, 3);
    }

    #[test]
    fn a_program_longer_than_the_kernel_takes_is_an_error() {
        let mut asm = Asm::default();
        let mut last = asm.ret(0);
        for _ in 0..MAX_INSNS {
            last = asm.ret(0);
        }
        assert_eq!(
            asm.finish(last).err(),
            Some(AsmError::TooLong(MAX_INSNS + 1))
        );
    }
}
