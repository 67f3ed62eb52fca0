#version 450
// Structured control flow: a for loop with continue and break, a nested
// while, a do-while whose condition is in the continue construct.
layout(location = 0) flat in int n;
layout(location = 0) out vec4 o;

void main()
{
	float acc = 0.0;
	for (int i = 0; i < n; i++) {
		if (i == 3)
			continue;
		int j = i;
		while (j > 0) {
			acc += float(j);
			if (acc > 100.0)
				break;
			j -= 2;
		}
		if (acc > 1000.0)
			break;
	}
	int k = 0;
	do {
		k++;
		if (k == 2)
			continue;
		acc *= 0.5;
	} while (k < n);
	o = vec4(acc);
}
