#!/usr/bin/perl
# Which way the arrows point (../shared/DESIGN.md): every #include "…" of the
# sources must point down the layers, never up or sideways.
#
#   util ← vocabulary ← common ← IR ← opt ← exec ← front ends | backends ← compile
#        ← cli / runner;   stats, cmp, reports ← util, vocabulary only
#
#	perl tests/layers.pl [ROOT]      one line per include that points the
#	                                 wrong way; exit status 1 if any
#
# A layer is a set of paths (first match wins); LAYERS says what each may
# include.  The vocabulary is what records are made of — the statistics
# table, the stage names and JSON strings of any bytes — which the compiler
# writes and the tools read.  exec is the differential test every backend's
# simulator plugs into.
# One backend never includes another; tests/ and bench/ may include anything.
use strict;
use warnings;
use File::Find;

my $root = shift // '.';
chdir $root or die "layers.pl: cannot enter $root: $!\n";

# [layer, path pattern]
my @paths = (
	[ util     => qr{^compiler/util/} ],
	[ vocab    => qr{^stats/(stat\.[ch]|stats\.def|stage\.[ch]|json_text\.[ch])$} ],
	[ common   => qr{^compiler/(stage\.[ch]|target\.[ch]|targets\.def|compile_types\.[ch])$} ],
	[ ir       => qr{^compiler/ir/} ],
	[ opt      => qr{^compiler/opt/} ],
	[ exec     => qr{^compiler/exec/} ],
	[ front    => qr{^compiler/(front|spirv|link)/} ],
	[ backend  => qr{^compiler/(ir3|etna)/} ],
	[ compile  => qr{^compiler/(compile\.[ch]|passes\.c|record\.[ch])$} ],
	[ cli      => qr{^(cli|compiler/cli)/} ],
	[ runner   => qr{^runner/} ],
	[ tools    => qr{^(stats|cmp|reports)/} ],
);

my @below_compile = qw(util vocab common ir opt exec front backend compile);
my %may = (
	util    => [qw(util)],
	vocab   => [qw(util vocab)],
	common  => [qw(util vocab common)],
	ir      => [qw(util vocab common ir)],
	opt     => [qw(util vocab common ir opt)],
	exec    => [qw(util vocab common ir opt exec)],
	front   => [qw(util vocab common ir opt front)],
	backend => [qw(util vocab common ir opt exec backend)],
	compile => [@below_compile],
	runner  => [@below_compile, qw(runner tools)],
	cli     => [@below_compile, qw(runner tools cli)],
	tools   => [qw(util vocab tools)],
);

sub layer_of {
	my ($path) = @_;
	for my $p (@paths) {
		return $p->[0] if $path =~ $p->[1];
	}
	return undef;
}

# compiler/ir3/… → ir3: which backend a backend file belongs to
sub family { $_[0] =~ m{^compiler/([^/]+)/} ? $1 : '' }

my @files;
find({ no_chdir => 1, wanted => sub {
	s{^\./}{};
	$File::Find::prune = 1 if m{^(build|build-san|tests|bench|\.git)$};
	push @files, $_ if -f && /\.(c|h|def)$/;
} }, '.');

my $bad = 0;
for my $file (sort @files) {
	my $from = layer_of($file) // next;
	open my $fh, '<', $file or die "layers.pl: $file: $!\n";
	while (my $line = <$fh>) {
		next unless $line =~ /^\s*#\s*include\s+"([^"]+)"/;
		my $inc = $1;
		next unless $inc =~ m{/};	# generated headers (version.h, …)
		my $to = layer_of($inc);
		if (!defined $to) {
			print "$file:$.: includes $inc, which is in no layer\n";
			$bad++;
			next;
		}
		my $ok = grep { $_ eq $to } @{ $may{$from} };
		$ok = 0 if $ok && $from eq 'backend' && $to eq 'backend' && family($file) ne family($inc);
		next if $ok;
		print "$file:$.: $from includes $to ($inc): the arrow points the wrong way\n";
		$bad++;
	}
	close $fh;
}
exit($bad ? 1 : 0);
