#version 450
// More early exits than the reader once had room for (8): every case of a
// switch breaks from inside an if, and an inlined function returns from
// inside loops and from inside the cases of a switch.
layout(location = 0) flat in int sel;
layout(location = 1) in float v;
layout(location = 0) out vec4 color;

float pick(int k, float x)
{
	for (int i = 0; i < 4; i++) {
		for (int j = 0; j < 4; j++) {
			if (x > float(i * j + k))
				return float(i - j);
		}
		switch (k & 3) {
		case 0: if (x < 0.0) return -1.0; break;
		case 1: if (x < 1.0) return -2.0; break;
		case 2: if (x < 2.0) return -3.0; break;
		default: if (x < 3.0) return -4.0; break;
		}
	}
	return x;
}

void main()
{
	color = vec4(0.0);
	switch (sel) {
	case 0: if (v > 0.5) break; color.x += 1.0; break;
	case 1: if (v > 1.5) break; color.y += 1.0; break;
	case 2: if (v > 2.5) break; color.z += 1.0; break;
	case 3: if (v > 3.5) break; color.w += 1.0; break;
	case 4: if (v > 4.5) break; color.x += 2.0; break;
	case 5: if (v > 5.5) break; color.y += 2.0; break;
	case 6: if (v > 6.5) break; color.z += 2.0; break;
	case 7: if (v > 7.5) break; color.w += 2.0; break;
	case 8: if (v > 8.5) break; color.x += 3.0; break;
	case 9: if (v > 9.5) break; color.y += 3.0; break;
	case 10: if (v > 10.5) break; color.z += 3.0; break;
	default: if (v > 11.5) break; color += vec4(pick(sel, v)); break;
	}
}
