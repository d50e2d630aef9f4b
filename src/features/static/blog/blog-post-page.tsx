import { Link, useParams } from 'react-router-dom';
import { PageHeader } from '../../../components/page-header.tsx';
import { findBlogPost, formatPostDate } from './blog-posts.ts';

export function BlogPostPage() {
  const { id } = useParams();
  const post = findBlogPost(id);
  if (!post) {
    return (
      <div className="container page">
        <PageHeader title="Post not found" />
        <p>
          <Link to="/blog">Back to the blog</Link>
        </p>
      </div>
    );
  }
  return (
    <article className="container page prose">
      <p>
        <Link to="/blog">← All posts</Link>
      </p>
      <PageHeader title={post.title}>
        <p className="muted">
          <span className="badge">{post.category}</span> · <time dateTime={post.date}>{formatPostDate(post.date)}</time>{' '}
          · {post.readMinutes} min read
        </p>
      </PageHeader>
      {post.body.map((paragraph, i) => (
        <p key={i}>{paragraph}</p>
      ))}
    </article>
  );
}
