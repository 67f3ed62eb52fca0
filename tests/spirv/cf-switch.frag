#version 450
// Switch: cases that fall through, a case sharing its block with another
// literal, a break from inside an if, an empty case, default in the middle.
layout(location = 0) flat in int sel;
layout(location = 0) out vec4 o;

void main()
{
	vec4 c = vec4(0.0);
	switch (sel) {
	case 0:
	case 7:
		c.x = 1.0;
		break;
	case 1:
		c.y = 1.0;
		// fall through
	case 2:
		c.z += 1.0;
		break;
	default:
		c.w = 1.0;
		if (sel > 10)
			break;
		c.w = 2.0;
		break;
	case 4:
		break;
	}
	o = c;
}
