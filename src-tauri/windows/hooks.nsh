; PDFAgent's NSIS installer hooks (Tauri v2: bundle.windows.nsis.installerHooks, set in
; src-tauri/tauri.bundle.windows.conf.json).
;
; After the files are in place, give the worker's AppContainer its lasting read access to
; this installation (`pdfagent grant-runtime`, issue 45): on a per-user install Windows then
; rewrites the permissions of every file of runtime\, which takes seconds and should happen
; here, once, not at the first figure's start. The grant's completion marker
; (runtime\runtime-manifest.json) is written last; a start that does not find it makes the
; grant itself, before the run's timer starts. So a failure here never fails the install.
; A per-machine install under Program Files needs no grant (every AppContainer reads there)
; and the command says so.

!macro NSIS_HOOK_POSTINSTALL
  DetailPrint "Giving PDFAgent's worker read access to its runtime..."
  nsExec::ExecToLog '"$INSTDIR\${MAINBINARYNAME}.exe" grant-runtime'
  Pop $0
  ${If} $0 != 0
    DetailPrint "pdfagent grant-runtime exited $0: the first figure will make the grant instead."
  ${EndIf}
!macroend
