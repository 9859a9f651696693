# Drives zsh's completion of sudoku-batch in a pseudo-terminal: for each pair of
# arguments (what is typed, the word expected), types it, presses Tab and prints
# `ok WORD` once the word shows on the line, or `missing WORD` after 10 s.
zmodload zsh/zpty zsh/datetime
dir=$1; shift
zpty z 'zsh -f -i'
zpty -w z "PROMPT='> '; fpath=($dir \$fpath); autoload -U compinit; compinit -u -D; sudoku-batch() { :; }"
while (( $# >= 2 )); do
  typed=$1 want=$2; shift 2
  zpty -wn z "$typed"$'\t'
  out="" start=$EPOCHREALTIME found=missing
  while (( EPOCHREALTIME - start < 10 )); do
    zpty -rt z chunk && out+=$chunk || sleep 0.05
    [[ $out == *"$want"* ]] && { found=ok; break }
  done
  print -r -- "$found $want"
  zpty -wn z $'\x15'
done
zpty -d z
