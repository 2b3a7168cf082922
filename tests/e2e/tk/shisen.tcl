#!/usr/bin/env wish
# shisen.tcl - a small Shisen-Sho game in Tcl/Tk 8.6, written the way a
# hobbyist would: a canvas of white tiles with mahjong faces, a menu bar and
# a status line.  It exists to test linkup on a toolkit linkup was not tuned
# for.  Needs: wish (Debian 'tk'); for the mahjong faces a font with
# U+1F000.. (Debian 'fonts-symbola'), else faces are drawn as short text.
#
#   wish shisen.tcl ?-rows 6? ?-cols 14? ?-seed N? ?-tile 40x52? ?-gap 0?
#                   ?-wallpaper PATH? ?-sparse 0.0? ?-truth PATH?
#                   ?-faces auto|glyph|text? ?-geometry +X+Y?
#
# -truth PATH: after every change the board is written to PATH as
#   rows R / cols C / origin X Y / pitch PX PY / tile W H / grid + R lines,
# where origin is tile (0,0)'s top-left in the coordinates of the top-level
# window (the X window whose title is "Tk Shisen-Sho ...", menu bar
# included), and 0 in the grid is an empty cell.

package require Tk 8.6

# ---------------------------------------------------------------- options
array set opt {
    -rows 6 -cols 14 -seed 1 -tile 40x52 -gap 0 -wallpaper "" -sparse 0.0
    -truth "" -faces auto -geometry ""
}
if {[llength $argv] % 2} { puts stderr "usage: wish shisen.tcl ?-option value ...?"; exit 2 }
foreach {k v} $argv {
    if {![info exists opt($k)]} { puts stderr "unknown option $k"; exit 2 }
    set opt($k) $v
}
set ROWS $opt(-rows)
set COLS $opt(-cols)
if {($ROWS * $COLS) % 2} { puts stderr "rows*cols must be even"; exit 2 }
lassign [split $opt(-tile) x] TW TH
set GAP $opt(-gap)
set PX [expr {$TW + $GAP}]
set PY [expr {$TH + $GAP}]
set MARGIN 24 ;# canvas border around the board

# ---------------------------------------------------------------- faces
# 36 kinds: winds, dragons, characters, bamboo, circles (U+1F000..1F021) and
# two flowers (U+1F022, 1F023).  Tcl 8.6 keeps strings in UTF-16, so
# characters past U+FFFF go in as surrogate pairs (Tk's Xft code joins them).
proc u16 {cp} {
    set v [expr {$cp - 0x10000}]
    format %c%c [expr {0xD800 + ($v >> 10)}] [expr {0xDC00 + ($v & 0x3FF)}]
}
set useGlyph 0
switch -- $opt(-faces) {
    glyph { set useGlyph 1 }
    text  { set useGlyph 0 }
    default {
        if {![catch {exec fc-list :charset=1f000 family} out] && [string trim $out] ne ""} {
            set useGlyph 1
            set glyphFamily [lindex [split [lindex [split [string trim $out] \n] 0] ,] 0]
        }
    }
}
if {$useGlyph && ![info exists glyphFamily]} { set glyphFamily Symbola }
set textNames {E S W N Rd Gr Wh}
for {set i 1} {$i <= 9} {incr i} { lappend textNames ${i}m }
for {set i 1} {$i <= 9} {incr i} { lappend textNames ${i}s }
for {set i 1} {$i <= 9} {incr i} { lappend textNames ${i}p }
lappend textNames F1 F2
proc faceColor {k} {
    # k = 1..36
    set i [expr {$k - 1}]
    if {$i < 4} { return black }
    if {$i == 4} { return "#c00000" }      ;# red dragon
    if {$i == 5} { return "#007000" }      ;# green dragon
    if {$i == 6} { return "#0040a0" }      ;# white dragon
    if {$i < 16} { return "#a00000" }      ;# characters
    if {$i < 25} { return "#006000" }      ;# bamboo
    if {$i < 34} { return "#003090" }      ;# circles
    return "#7000a0"                       ;# flowers
}
proc faceText {k} {
    global useGlyph textNames
    if {$useGlyph} { return [u16 [expr {0x1F000 + $k - 1}]] }
    return [lindex $textNames [expr {$k - 1}]]
}
if {$useGlyph} {
    # the glyph (with its own rounded frame) fills about 85% of the tile
    set fs [expr {-int(min($TH * 0.95, $TW * 1.25))}]
    font create faceFont -family $glyphFamily -size $fs
} else {
    font create faceFont -family "DejaVu Sans" -size [expr {-int(min($TH, $TW) * 0.45)}] -weight bold
}

# ---------------------------------------------------------------- deal
expr {srand($opt(-seed))}
proc rnd {n} { expr {int(rand() * $n)} }
proc newDeal {} {
    global ROWS COLS board opt tilesLeft selected startTime won
    set cells [expr {$ROWS * $COLS}]
    set npairs [expr {$cells / 2}]
    # 4 of each kind; small boards (<= 40 cells) 2 of each
    if {$cells <= 40} { set K [expr {min(36, $npairs)}] } else { set K [expr {min(36, ($npairs + 1) / 2)}] }
    set deck {}
    for {set i 0} {$i < $npairs} {incr i} {
        set k [expr {$i % $K + 1}]
        lappend deck $k $k
    }
    # Fisher-Yates
    for {set i [expr {[llength $deck] - 1}]} {$i > 0} {incr i -1} {
        set j [rnd [expr {$i + 1}]]
        set t [lindex $deck $i]
        lset deck $i [lindex $deck $j]
        lset deck $j $t
    }
    set n 0
    for {set r 0} {$r < $ROWS} {incr r} {
        for {set c 0} {$c < $COLS} {incr c} {
            set board($r,$c) [lindex $deck $n]
            incr n
        }
    }
    # sparse: take away that fraction of the pairs (random pairs of a kind)
    set drop [expr {int(round($opt(-sparse) * $npairs))}]
    for {set d 0} {$d < $drop} {incr d} {
        set filled {}
        foreach key [array names board] { if {$board($key)} { lappend filled $key } }
        set filled [lsort -dictionary $filled]
        set a [lindex $filled [rnd [llength $filled]]]
        set mates {}
        foreach key $filled { if {$key ne $a && $board($key) == $board($a)} { lappend mates $key } }
        set b [lindex $mates [rnd [llength $mates]]]
        set board($a) 0
        set board($b) 0
    }
    set tilesLeft 0
    foreach key [array names board] { if {$board($key)} { incr tilesLeft } }
    set selected ""
    set won 0
    set startTime [clock seconds]
}

# ---------------------------------------------------------------- path rule
# connected by at most 3 straight segments through empty cells; the ring
# just outside the board counts as empty.
proc empty {r c} {
    global ROWS COLS board
    if {$r < 0 || $c < 0 || $r >= $ROWS || $c >= $COLS} { return 1 }
    expr {$board($r,$c) == 0}
}
proc connected {r1 c1 r2 c2} {
    global ROWS COLS
    # BFS over (cell, direction) with turns counted
    set best [dict create]
    set queue {}
    foreach {dr dc} {-1 0 1 0 0 -1 0 1} {
        lappend queue [list $r1 $c1 $dr $dc 0]
    }
    while {[llength $queue]} {
        set queue [lassign $queue item]
        lassign $item r c dr dc turns
        set nr [expr {$r + $dr}]
        set nc [expr {$c + $dc}]
        if {$nr < -1 || $nc < -1 || $nr > $ROWS || $nc > $COLS} continue
        if {$nr == $r2 && $nc == $c2} { return 1 }
        if {![empty $nr $nc]} continue
        foreach {er ec} {-1 0 1 0 0 -1 0 1} {
            if {$er == -$dr && $ec == -$dc} continue
            set t [expr {$turns + (($er != $dr || $ec != $dc) ? 1 : 0)}]
            if {$t > 2} continue
            set key "$nr,$nc,$er,$ec"
            if {[dict exists $best $key] && [dict get $best $key] <= $t} continue
            dict set best $key $t
            lappend queue [list $nr $nc $er $ec $t]
        }
    }
    return 0
}

# ---------------------------------------------------------------- window
wm title . "Tk Shisen-Sho"
if {$opt(-geometry) ne ""} { wm geometry . $opt(-geometry) }
menu .m
menu .m.game -tearoff 0
.m add cascade -label Game -menu .m.game -underline 0
.m.game add command -label New -underline 0 -command {newDeal; drawBoard}
.m.game add separator
.m.game add command -label Quit -underline 0 -command exit
. configure -menu .m

set CW [expr {2 * $MARGIN + $COLS * $PX - $GAP}]
set CH [expr {2 * $MARGIN + $ROWS * $PY - $GAP}]
canvas .c -width $CW -height $CH -background "#9a9a9a" -highlightthickness 0 -borderwidth 0
label .status -anchor w -relief sunken -borderwidth 1 -padx 4
pack .c -side top
pack .status -side top -fill x

# wallpaper behind the left half of the canvas
proc loadWallpaper {path} {
    global CW CH
    if {$path eq ""} return
    if {![string match -nocase *.png $path] && ![string match -nocase *.gif $path]} {
        set tmp "/tmp/tk-shisen-wallpaper-[pid].png"
        exec convert $path $tmp
        set path $tmp
    }
    image create photo wallSrc -file $path
    set w [expr {min([image width wallSrc], $CW / 2)}]
    set h [expr {min([image height wallSrc], $CH)}]
    # take the middle of the picture
    set x0 [expr {([image width wallSrc] - $w) / 2}]
    set y0 [expr {([image height wallSrc] - $h) / 2}]
    image create photo wall -width $w -height $h
    wall copy wallSrc -from $x0 $y0 [expr {$x0 + $w}] [expr {$y0 + $h}]
    image delete wallSrc
    .c create image 0 0 -image wall -anchor nw -tags wall
}
loadWallpaper $opt(-wallpaper)

proc tileXY {r c} {
    global MARGIN PX PY
    list [expr {$MARGIN + $c * $PX}] [expr {$MARGIN + $r * $PY}]
}
proc drawTile {r c} {
    global board TW TH selected
    .c delete "t$r,$c"
    set k $board($r,$c)
    if {!$k} return
    lassign [tileXY $r $c] x y
    set tag "t$r,$c"
    set sel [expr {$selected eq "$r,$c"}]
    set fill [expr {$sel ? "#ffff99" : "white"}]
    set x2 [expr {$x + $TW - 1}]
    set y2 [expr {$y + $TH - 1}]
    # body with a 2 px shaded right/bottom edge, thin black outline
    .c create rectangle $x $y $x2 $y2 -fill $fill -outline "" -tags [list tile $tag]
    .c create rectangle [expr {$x2 - 2}] $y $x2 $y2 -fill "#b0b0b0" -outline "" -tags [list tile $tag]
    .c create rectangle $x [expr {$y2 - 2}] $x2 $y2 -fill "#b0b0b0" -outline "" -tags [list tile $tag]
    .c create rectangle $x $y $x2 $y2 -outline [expr {$sel ? "red" : "black"}] \
        -width 1 -tags [list tile $tag]
    .c create text [expr {$x + ($TW - 2) / 2.0}] [expr {$y + ($TH - 2) / 2.0}] \
        -text [faceText $k] -font faceFont -fill [faceColor $k] -tags [list tile $tag]
    .c bind $tag <Button-1> [list clicked $r $c]
}
proc drawBoard {} {
    global ROWS COLS
    .c delete tile
    for {set r 0} {$r < $ROWS} {incr r} {
        for {set c 0} {$c < $COLS} {incr c} { drawTile $r $c }
    }
    changed
}

proc clicked {r c} {
    global board selected tilesLeft won
    if {$won || !$board($r,$c)} return
    if {$selected eq "$r,$c"} {
        set selected ""
        drawTile $r $c
        changed
        return
    }
    if {$selected ne ""} {
        lassign [split $selected ,] r0 c0
        if {$board($r0,$c0) == $board($r,$c) && [connected $r0 $c0 $r $c]} {
            set board($r0,$c0) 0
            set board($r,$c) 0
            set selected ""
            .c delete "t$r0,$c0" "t$r,$c"
            incr tilesLeft -2
            if {$tilesLeft == 0} { set won 1 }
            changed
            return
        }
        set old $selected
        set selected "$r,$c"
        drawTile $r0 $c0
        drawTile $r $c
        changed
        return
    }
    set selected "$r,$c"
    drawTile $r $c
    changed
}

# ---------------------------------------------------------------- status
proc elapsed {} {
    global startTime
    set s [expr {[clock seconds] - $startTime}]
    format "%d:%02d" [expr {$s / 60}] [expr {$s % 60}]
}
proc updateStatus {} {
    global tilesLeft won
    if {$won} {
        wm title . "Tk Shisen-Sho - You win"
        .status configure -text "You win!   Time: [elapsed]"
    } else {
        wm title . "Tk Shisen-Sho - $tilesLeft tiles"
        .status configure -text "Tiles left: $tilesLeft   Time: [elapsed]"
    }
}
proc tick {} {
    global won
    if {!$won} { updateStatus }
    after 1000 tick
}

# ---------------------------------------------------------------- truth
# top-left of the top-level X window: the menu bar sits above "." in Tk's
# wrapper window, so take the smaller of the two.
proc windowTop {} {
    set x [winfo rootx .]
    set y [winfo rooty .]
    foreach w [winfo children .] {
        if {[winfo class $w] eq "Menu" && [winfo ismapped $w]} {
            set x [expr {min($x, [winfo rootx $w])}]
            set y [expr {min($y, [winfo rooty $w])}]
        }
    }
    list $x $y
}
proc writeTruth {} {
    global opt ROWS COLS PX PY TW TH MARGIN board
    if {$opt(-truth) eq ""} return
    update idletasks
    lassign [windowTop] wx wy
    set ox [expr {[winfo rootx .c] - $wx + $MARGIN}]
    set oy [expr {[winfo rooty .c] - $wy + $MARGIN}]
    set out "rows $ROWS\ncols $COLS\norigin $ox $oy\npitch $PX $PY\ntile $TW $TH\ngrid\n"
    for {set r 0} {$r < $ROWS} {incr r} {
        set line {}
        for {set c 0} {$c < $COLS} {incr c} { lappend line $board($r,$c) }
        append out [join $line " "] \n
    }
    set tmp "$opt(-truth).tmp"
    set f [open $tmp w]
    puts -nonewline $f $out
    close $f
    file rename -force $tmp $opt(-truth)
}
proc changed {} {
    updateStatus
    if {[winfo ismapped .c]} { writeTruth }
}

newDeal
drawBoard
bind .c <Map> { after idle writeTruth }
tick
