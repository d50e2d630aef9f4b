import { useState } from 'react';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../../components/page-header.tsx';
import { BLOG_CATEGORIES, BLOG_POSTS, formatPostDate, type BlogCategory } from './blog-posts.ts';

export function BlogListPage() {
  const [category, setCategory] = useState<BlogCategory | null>(null);
  const posts = category ? BLOG_POSTS.filter((post) => post.category === category) : BLOG_POSTS;
  return (
    <div className="container page">
      <PageHeader title="Blog" lead="Guides, stories and product news for creators and brands." />
      <div
        role="group"
        aria-label="Filter posts by category"
        style={{ display: 'flex', gap: '0.5rem', flexWrap: 'wrap', marginBottom: '1.5rem' }}
      >
        <button type="button" className="chip" aria-pressed={category === null} onClick={() => setCategory(null)}>
          All
        </button>
        {BLOG_CATEGORIES.map((c) => (
          <button key={c} type="button" className="chip" aria-pressed={category === c} onClick={() => setCategory(c)}>
            {c}
          </button>
        ))}
      </div>
      <ul className="grid" style={{ listStyle: 'none', padding: 0 }} aria-label="Posts">
        {posts.map((post) => (
          <li key={post.id} className="card">
            <article>
              <span className="badge">{post.category}</span>
              <h2 style={{ fontSize: '1.2rem', marginTop: '0.75rem' }}>
                <Link to={`/blog/${post.id}`}>{post.title}</Link>
              </h2>
              <p className="muted">{post.excerpt}</p>
              <p className="muted" style={{ margin: 0, fontSize: '0.9rem' }}>
                <time dateTime={post.date}>{formatPostDate(post.date)}</time> · {post.readMinutes} min read
              </p>
            </article>
          </li>
        ))}
      </ul>
    </div>
  );
}
